/**
 * Typed errors. Misuse (bad arguments, use after close, unserializable data) is thrown at the call;
 * I/O failures are reported through `onError` and `flush()` with a stable `code` and the OS error as `cause`.
 */

/** Stable codes of {@link RecorderError}. */
export const RecorderErrorCode = {
  /** The transcript directory could not be created. */
  DIR_FAILED: 'EDIRFAILED',
  /** The transcript file could not be opened (or reopened after it was replaced). */
  OPEN_FAILED: 'EOPENFAILED',
  /** A write to the transcript failed; the records stay queued and are retried. */
  WRITE_FAILED: 'EWRITEFAILED',
  /** `fdatasync` of the transcript failed. */
  FSYNC_FAILED: 'EFSYNCFAILED',
  /** The session lock could not be taken for a reason other than another holder (e.g. `EACCES`). */
  LOCK_FAILED: 'ELOCKFAILED',
  /** Another writer holds the session: see {@link SessionLockedError}. */
  SESSION_LOCKED: 'ESESSIONLOCKED',
  /** The lock was lost while held (its directory removed or its mtime taken over). */
  LOCK_COMPROMISED: 'ELOCKCOMPROMISED',
  /**
   * The transcript path was deleted, renamed or replaced while open: the records written since it was last
   * found at the path were copied into the file now there (created if missing), none of them twice.
   */
  TRANSCRIPT_REPLACED: 'ETRANSCRIPTREPLACED',
  /** Someone truncated the open transcript: records already written were lost with it (the count is given). */
  TRANSCRIPT_TRUNCATED: 'ETRANSCRIPTTRUNCATED',
  /** Someone else appended to the open transcript (the lock was bypassed); our records continue after it. */
  TRANSCRIPT_CHANGED: 'ETRANSCRIPTCHANGED',
  /** The file at the transcript path was not written by sessiontape: it is never written, truncated or replaced. */
  FOREIGN_FILE: 'EFOREIGNFILE',
  /** The process exited with records still unwritten (the exit drain failed or ran out of `exitDrainMs`). */
  EXIT_UNWRITTEN: 'EEXITUNWRITTEN',
  /** A record was refused: it would take the queue past `maxQueueBytes` and the queue could not be written now. */
  QUEUE_FULL: 'EQUEUEFULL',
  /** Repairing the torn tail of a transcript failed. */
  REPAIR_FAILED: 'EREPAIRFAILED',
  /** Writing the `<sessionId>.meta.json` sidecar failed (the transcript itself is unaffected). */
  META_FAILED: 'EMETAFAILED',
  /** Reading the tail of the transcript to resume it failed. */
  RESUME_FAILED: 'ERESUMEFAILED',
} as const

export type RecorderErrorCode = (typeof RecorderErrorCode)[keyof typeof RecorderErrorCode]

export interface RecorderErrorDetails {
  readonly sessionId: string
  readonly filePath: string
  /** Records accepted by `record()` and not yet written when the error was raised. */
  readonly unwrittenRecords: number
  readonly cause?: unknown
}

/** An I/O failure of a recorder, reported through `onError`, `flush()`, `close()` and `ready()`. */
export class RecorderError extends Error {
  override readonly name: string = 'RecorderError'
  readonly code: RecorderErrorCode
  readonly sessionId: string
  readonly filePath: string
  readonly unwrittenRecords: number

  constructor(code: RecorderErrorCode, message: string, details: RecorderErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = code
    this.sessionId = details.sessionId
    this.filePath = details.filePath
    this.unwrittenRecords = details.unwrittenRecords
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
  readonly code = 'EINVALIDRECORD'
}

/** With `maxRecordBytes`, `record()` refuses a record whose line would be longer; nothing was queued. */
export class RecordTooLargeError extends InvalidRecordError {
  override readonly name: string = 'RecordTooLargeError'
  override readonly code = 'ERECORDTOOLARGE' as 'EINVALIDRECORD'
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

/** `record()` after `close()`. */
export class RecorderClosedError extends Error {
  override readonly name: string = 'RecorderClosedError'
  readonly code = 'ERECORDERCLOSED'
}

/** With `overflow: 'throw'`, `record()` refuses a record that would push the queue past `maxQueueBytes`. */
export class QueueFullError extends RecorderError {
  override readonly name: string = 'QueueFullError'
}
