/** Why an OpenCode database could not be read; `code` is stable, the message says it for a person. */
export type OpenCodeDbErrorCode =
  /** The file does not start with SQLite's 16-byte header string. */
  | 'ERR_NOT_SQLITE'
  /** The database and its `-wal` file together exceed `maxBytes`. */
  | 'ERR_OPENCODE_DB_TOO_LARGE'
  /** A writer kept checkpointing or resetting the WAL while every attempt read it. */
  | 'ERR_OPENCODE_DB_BUSY'
  /** The header or the WAL breaks SQLite's file format (a page size that is not a power of two…). */
  | 'ERR_OPENCODE_DB_CORRUPT'
  /** A SQLite database, but without OpenCode's `session`, `message` and `part` tables. */
  | 'ERR_NOT_OPENCODE_DB'

/** An OpenCode database that cannot be read as one; the fs error or SQLite's, if any, is the `cause`. */
export class OpenCodeDbError extends Error {
  override readonly name: string = 'OpenCodeDbError'
  readonly code: OpenCodeDbErrorCode
  readonly file: string

  constructor(code: OpenCodeDbErrorCode, file: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
    this.file = file
  }
}
