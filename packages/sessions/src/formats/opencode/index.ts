import { open } from 'node:fs/promises'
import type { Conversation } from '../../model.js'
import { invalid } from '../../options.js'
import { OpenCodeDbError } from './errors.js'
import { mapSession, type DataRow, type SessionRow } from './map.js'
import { isSqliteHeader, readDbSnapshot } from './snapshot.js'
import { withImage, type MemoryDb } from './sqlite-memory.js'

export { OpenCodeDbError, type OpenCodeDbErrorCode } from './errors.js'

/**
 * The bound on what is read: the database and its `-wal` file together. Peak memory is about three times
 * the bytes read (the files, the page image, and sql.js's in-memory copy of it). 256 MiB holds years of
 * OpenCode use; a larger store is refused with `ERR_OPENCODE_DB_TOO_LARGE` instead of exhausting memory.
 */
export const OPENCODE_DB_MAX_BYTES = 256 * 1024 * 1024

/** Options of `readOpenCodeDb()`. */
export interface ReadOpenCodeDbOptions {
  /**
   * The most bytes to read (the database plus its `-wal` file); more is refused with
   * `ERR_OPENCODE_DB_TOO_LARGE`. A positive safe integer.
   * @default OPENCODE_DB_MAX_BYTES (256 MiB)
   */
  readonly maxBytes?: number
  /** Read only this session (its id, `ses_…`). @default every session */
  readonly sessionId?: string
}

/** An OpenCode store, read as of its last commit. */
export interface OpenCodeDb {
  readonly file: string
  /** One conversation per `session` row (subagent sessions too: their `parentSessionId` names the parent). */
  readonly sessions: readonly Conversation[]
  /** Committed WAL frames applied over the database file. */
  readonly framesApplied: number
  /** WAL frames of a transaction not yet committed when read (left out, as any SQLite reader would). */
  readonly framesNotCommitted: number
  /** Message and part rows whose `data` is not a JSON object (each kept as an `other` event). */
  readonly rowsNotRead: number
}

const TABLES = ['session', 'message', 'part'] as const

/**
 * Reads OpenCode's `opencode.db` (usually ~/.local/share/opencode/opencode.db): a consistent snapshot of
 * the database with its committed WAL frames (see snapshot.ts), opened in WebAssembly memory (no native
 * addon), nothing created beside it. Rejects with `OpenCodeDbError` (`ERR_NOT_SQLITE`, `ERR_NOT_OPENCODE_DB`,
 * `ERR_OPENCODE_DB_TOO_LARGE`, `ERR_OPENCODE_DB_BUSY`, `ERR_OPENCODE_DB_CORRUPT`) or the fs error of `file`;
 * a bad argument throws `SessionsArgumentError` at the call.
 */
export function readOpenCodeDb(file: string, options: ReadOpenCodeDbOptions = {}): Promise<OpenCodeDb> {
  if (typeof file !== 'string' || file === '') throw invalid('file', file, 'a non-empty path')
  const maxBytes = options.maxBytes ?? OPENCODE_DB_MAX_BYTES
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw invalid('maxBytes', maxBytes, 'a positive safe integer')
  const only = options.sessionId
  if (only !== undefined && (typeof only !== 'string' || only === ''))
    throw invalid('sessionId', only, 'a non-empty string')
  return readChecked(file, maxBytes, only)
}

async function readChecked(file: string, maxBytes: number, only: string | undefined): Promise<OpenCodeDb> {
  const snapshot = await readDbSnapshot(file, maxBytes)
  let rows
  try {
    rows = await withImage(snapshot.image, (db) => readRows(db, file, only))
  } catch (error) {
    if (error instanceof OpenCodeDbError) throw error
    throw new OpenCodeDbError('ERR_OPENCODE_DB_CORRUPT', file, `${file}: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const partsOf = new Map<string, DataRow[]>()
  for (const part of rows.parts) {
    const list = partsOf.get(part.message_id ?? '')
    if (list === undefined) partsOf.set(part.message_id ?? '', [part])
    else list.push(part)
  }
  const messagesOf = new Map<string, DataRow[]>()
  for (const message of rows.messages) {
    const list = messagesOf.get(message.session_id)
    if (list === undefined) messagesOf.set(message.session_id, [message])
    else list.push(message)
  }
  let rowsNotRead = 0
  const sessions = rows.sessions.map((session) => {
    const mapped = mapSession(file, session, messagesOf.get(session.id) ?? [], partsOf)
    rowsNotRead += mapped.rowsNotRead
    return mapped.conversation
  })
  return {
    file,
    sessions,
    framesApplied: snapshot.framesApplied,
    framesNotCommitted: snapshot.framesNotCommitted,
    rowsNotRead,
  }
}

function readRows(db: MemoryDb, file: string, only: string | undefined) {
  const have = new Set(db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name))
  const missing = TABLES.filter((table) => !have.has(table))
  if (missing.length > 0) {
    throw new OpenCodeDbError(
      'ERR_NOT_OPENCODE_DB',
      file,
      `${file} is a SQLite database without OpenCode's ${missing.join(', ')} table(s)`,
    )
  }
  const where = only === undefined ? '' : ' WHERE session_id = ?'
  const params = only === undefined ? [] : [only]
  return {
    sessions: db.rows(
      `SELECT * FROM session${only === undefined ? '' : ' WHERE id = ?'} ORDER BY time_created, id`,
      params,
    ) as unknown as SessionRow[],
    messages: db.rows(
      `SELECT id, session_id, time_created, data FROM message${where} ORDER BY session_id, time_created, id`,
      params,
    ) as unknown as DataRow[],
    // Part ids sort in creation order (OpenCode's ids are time-ordered), as OpenCode itself reads them.
    parts: db.rows(
      `SELECT id, message_id, session_id, time_created, data FROM part${where} ORDER BY message_id, id`,
      params,
    ) as unknown as DataRow[],
  }
}

/** Whether `file` opens with SQLite's header (read from its first 16 bytes; false when it cannot be read). */
export async function isSqliteFile(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'r')
    try {
      const head = new Uint8Array(16)
      const { bytesRead } = await handle.read(head, 0, 16, 0)
      return isSqliteHeader(head.subarray(0, bytesRead))
    } finally {
      await handle.close()
    }
  } catch {
    // Unreadable or missing: the caller reads it as it would any file and reports that error itself.
    return false
  }
}
