import { type RecordCount, RecorderError, type RecorderErrorCode, SessionLockedError } from '../errors.js'

/** What every error of one recorder says about its session. */
export interface SessionDetails {
  readonly sessionId: string
  readonly filePath: string
  /** Records accepted but not persisted when the error was made. */
  readonly unwrittenRecords: number
}

/** A recorder error about one session: `Session "<id>": <what>`, then the cause's message (kept as cause). */
export function sessionError(
  details: SessionDetails,
  code: RecorderErrorCode,
  what: string,
  cause: unknown,
  loss?: Loss,
): RecorderError {
  const reason = cause instanceof Error ? `: ${cause.message}` : ''
  return new RecorderError(code, `Session "${details.sessionId}": ${what}${reason}`, {
    ...details,
    cause,
    ...loss,
  })
}

/** The typed loss an error carries (`error.lost`, `error.moved`). */
export interface Loss {
  readonly lost?: RecordCount
  readonly moved?: RecordCount
}

/** The same error, restated with the count of records unwritten now. */
export function withUnwrittenCount(error: RecorderError, details: SessionDetails): RecorderError {
  const unwritten = details.unwrittenRecords
  const restated = {
    sessionId: details.sessionId,
    filePath: details.filePath,
    unwrittenRecords: unwritten,
    // The OS error stays the cause, as in the original report.
    cause: error.cause,
    ...(error.lost === undefined ? {} : { lost: error.lost }),
    ...(error.moved === undefined ? {} : { moved: error.moved }),
  }
  if (error instanceof SessionLockedError) return new SessionLockedError(restated)
  return new RecorderError(error.code, `${unwritten} record(s) not persisted: ${error.message}`, restated)
}
