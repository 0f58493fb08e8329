/**
 * Typed errors, one convention for all of sessiontape: every error has a stable `code` in Node's `ERR_*`
 * style (what Node users already grep and branch on; errno-like names such as `ENOSPC` stay reserved for
 * the OS errors we carry as `cause`). Two branches, like Node's own errors:
 * - misuse of the API (a bad option, a bad record) is a `TypeError` thrown at the call:
 *   `RecorderArgumentError` (`ERR_RECORDER_INVALID_ARGUMENT`), `InvalidRecordError` (`ERR_INVALID_RECORD`);
 * - everything the recorder, the readers or repair report or refuse at run time is a `SessiontapeError`;
 *   the recorder's own, with the session's details, are `RecorderError`s.
 */

/** Base of every run-time error of this package: match on `code`. */
export class SessiontapeError extends Error {
  override readonly name: string = 'SessiontapeError'
  readonly code: string

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/** A bad argument or option: thrown at the call that got it, before anything happened. */
export class RecorderArgumentError extends TypeError {
  override readonly name: string = 'RecorderArgumentError'
  readonly code = 'ERR_RECORDER_INVALID_ARGUMENT'
}

/** Stable codes of {@link RecorderError}. */
export const RecorderErrorCode = {
  /** The transcript directory could not be created. */
  DIR_FAILED: 'ERR_RECORDER_DIR_FAILED',
  /** The transcript file could not be opened (or reopened after it was replaced). */
  OPEN_FAILED: 'ERR_RECORDER_OPEN_FAILED',
  /** A write to the transcript failed; the records stay queued and are retried. */
  WRITE_FAILED: 'ERR_RECORDER_WRITE_FAILED',
  /** `fdatasync` of the transcript failed. */
  FSYNC_FAILED: 'ERR_RECORDER_FSYNC_FAILED',
  /** The session lock could not be taken for a reason other than another holder (e.g. `EACCES`). */
  LOCK_FAILED: 'ERR_RECORDER_LOCK_FAILED',
  /** Another writer holds the session: see {@link SessionLockedError}. */
  SESSION_LOCKED: 'ERR_SESSION_LOCKED',
  /** The lock was lost while held (its directory removed or its mtime taken over). */
  LOCK_COMPROMISED: 'ERR_RECORDER_LOCK_COMPROMISED',
  /**
   * The transcript path was deleted, renamed or replaced while open: the records written since it was last
   * found at the path were copied into the file now there (created if missing), none of them twice.
   */
  TRANSCRIPT_REPLACED: 'ERR_TRANSCRIPT_REPLACED',
  /** Someone truncated the open transcript: records already written were lost with it (the count is given). */
  TRANSCRIPT_TRUNCATED: 'ERR_TRANSCRIPT_TRUNCATED',
  /** Someone else appended to the open transcript (the lock was bypassed); our records continue after it. */
  TRANSCRIPT_CHANGED: 'ERR_TRANSCRIPT_CHANGED',
  /**
   * The open transcript was overwritten in place (same file, other bytes: `cat other > file`): the records
   * written into it that the new content lacks were destroyed with the old bytes (the count is given).
   */
  TRANSCRIPT_OVERWRITTEN: 'ERR_TRANSCRIPT_OVERWRITTEN',
  /**
   * Something other than a regular file is at the transcript path (a FIFO, a socket, a device, a
   * directory): it is never written or read as a transcript, so nothing can block on it.
   */
  NOT_A_FILE: 'ERR_NOT_A_FILE',
  /** The file at the transcript path was not written by sessiontape: it is never written, truncated or replaced. */
  FOREIGN_FILE: 'ERR_FOREIGN_FILE',
  /** The process exited with records still unwritten (the exit drain failed or ran out of `exitDrainMs`). */
  EXIT_UNWRITTEN: 'ERR_RECORDER_EXIT_UNWRITTEN',
  /** A record was refused: it would take the queue past `maxQueueChars` (or `maxHeldChars`) and the queue could not be written now. */
  QUEUE_FULL: 'ERR_RECORDER_QUEUE_FULL',
  /** Repairing the torn tail of a transcript failed. */
  REPAIR_FAILED: 'ERR_REPAIR_FAILED',
  /** Writing the `<sessionId>.meta.json` sidecar failed (the transcript itself is unaffected). */
  META_FAILED: 'ERR_RECORDER_META_FAILED',
  /** Reading the tail of the transcript to resume it failed. */
  RESUME_FAILED: 'ERR_RECORDER_RESUME_FAILED',
  /**
   * A record handed over (`record(…, { handOver: true })`) could not be serialized when its turn came (a
   * cycle, a BigInt, a throwing getter or toJSON, over `maxRecordBytes`): it was written with its envelope
   * and `recordError: { code, message }` instead of its data, so the chain holds. `cause` is the
   * `InvalidRecordError` (or `RecordTooLargeError`) `record()` would have thrown.
   */
  RECORD_UNSERIALIZABLE: 'ERR_RECORD_UNSERIALIZABLE',
  /** `record()` after `close()`: see {@link RecorderClosedError}. */
  CLOSED: 'ERR_RECORDER_CLOSED',
} as const

export type RecorderErrorCode = (typeof RecorderErrorCode)[keyof typeof RecorderErrorCode]

/** How many acknowledged records an event took from the session (`exact` false: at least that many). */
export interface RecordCount {
  readonly records: number
  readonly exact: boolean
}

export interface RecorderErrorDetails {
  readonly sessionId: string
  readonly filePath: string
  /** Records accepted by `record()` and not yet written when the error was raised. */
  readonly unwrittenRecords: number
  readonly cause?: unknown
  /** Records this event lost for good (see {@link RecorderError.lost}). */
  readonly lost?: RecordCount
  /** Records a rotation took away with a file (see {@link RecorderError.moved}). */
  readonly moved?: RecordCount
}

/** An I/O failure of a recorder, reported through `onError`, `flush()`, `close()` and `ready()`. */
export class RecorderError extends SessiontapeError {
  override readonly name: string = 'RecorderError'
  declare readonly code: RecorderErrorCode
  readonly sessionId: string
  readonly filePath: string
  readonly unwrittenRecords: number
  /**
   * Set on an error that reports a loss: records the session had acknowledged (or accepted, at exit) that are
   * in none of its files and never will be — `exact` false when only a lower bound is known. A program that
   * counts losses reads this field, never the message.
   */
  readonly lost?: RecordCount
  /**
   * Set when a rotation moved the file away with records in it (a rename, `copytruncate`'s copy): they are
   * not lost, they are in the rotated file, which the session no longer reads (a shipper has them).
   */
  readonly moved?: RecordCount

  constructor(code: RecorderErrorCode, message: string, details: RecorderErrorDetails) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause })
    this.sessionId = details.sessionId
    this.filePath = details.filePath
    this.unwrittenRecords = details.unwrittenRecords
    if (details.lost !== undefined) this.lost = details.lost
    if (details.moved !== undefined) this.moved = details.moved
  }
}

/**
 * Another writer (in this or another process) holds the session's lock. Nothing this recorder accepted is
 * ever written into that writer's file.
 */
export class SessionLockedError extends RecorderError {
  override readonly name: string = 'SessionLockedError'
  declare readonly code: typeof RecorderErrorCode.SESSION_LOCKED

  constructor(details: RecorderErrorDetails) {
    super(
      RecorderErrorCode.SESSION_LOCKED,
      `Session "${details.sessionId}" is locked by another writer (${details.filePath}.lock); ` +
        `${details.unwrittenRecords} record(s) accepted by this recorder will not be written`,
      details,
    )
  }
}

/** `record()` was given something that cannot become a record; nothing was queued, the chain did not move. */
export class InvalidRecordError extends TypeError {
  override readonly name: string = 'InvalidRecordError'
  readonly code = 'ERR_INVALID_RECORD'
}

/** With `maxRecordBytes`, `record()` refuses a record whose line would be longer; nothing was queued. */
export class RecordTooLargeError extends InvalidRecordError {
  override readonly name: string = 'RecordTooLargeError'
  override readonly code = 'ERR_RECORD_TOO_LARGE' as 'ERR_INVALID_RECORD'
  /** UTF-8 bytes of the refused line, newline included. */
  readonly bytes: number
  readonly maxRecordBytes: number

  constructor(type: string, bytes: number, maxRecordBytes: number) {
    super(
      `Record "${type}" refused: its line is ${bytes} bytes, over maxRecordBytes (${maxRecordBytes}); store big payloads elsewhere and record a reference, or raise the limit`,
    )
    this.bytes = bytes
    this.maxRecordBytes = maxRecordBytes
  }
}

/** `record()` after `close()`; nothing was queued. */
export class RecorderClosedError extends RecorderError {
  override readonly name: string = 'RecorderClosedError'
  declare readonly code: typeof RecorderErrorCode.CLOSED

  constructor(message: string, details: RecorderErrorDetails) {
    super(RecorderErrorCode.CLOSED, message, details)
  }
}

/** With `overflow: 'throw'`, `record()` refuses a record that would push the queue past `maxQueueChars` (or `maxHeldChars`). */
export class QueueFullError extends RecorderError {
  override readonly name: string = 'QueueFullError'
}
