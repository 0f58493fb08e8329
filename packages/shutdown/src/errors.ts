/** Stable codes of the errors this package creates; match on `code`, not on the message. */
export type ShutdownErrorCode =
  'ERR_CLEANUP_TIMEOUT' | 'ERR_CLEANUP_STALLED' | 'ERR_SHUTDOWN_DEADLINE' | 'ERR_SHUTDOWN_FORCED'

/**
 * A bad argument or option of this package's API: a `TypeError` thrown at the call, before anything
 * happened. Same convention as the other sessiontape packages (`ERR_<PACKAGE>_INVALID_ARGUMENT`).
 */
export class ShutdownArgumentError extends TypeError {
  override readonly name: string = 'ShutdownArgumentError'
  readonly code = 'ERR_SHUTDOWN_INVALID_ARGUMENT'
}

/** Base class of every error this package creates (never thrown at callers: used as abort reasons and in reports). */
export class ShutdownError extends Error {
  readonly code: ShutdownErrorCode

  constructor(code: ShutdownErrorCode, message: string) {
    super(message)
    this.name = new.target.name
    this.code = code
  }
}

/** A cleanup did not settle within its own `timeoutMs`; its `AbortSignal` is aborted with this. */
export class CleanupTimeoutError extends ShutdownError {
  readonly timeoutMs: number

  constructor(name: string, timeoutMs: number) {
    super('ERR_CLEANUP_TIMEOUT', `Cleanup "${name}" did not settle within its ${timeoutMs} ms timeout`)
    this.timeoutMs = timeoutMs
  }
}

/**
 * The event loop emptied while the cleanup was still pending: it awaits something nothing can settle any
 * more (a promise no one will resolve, an unref'd handle), so waiting longer cannot help.
 */
export class CleanupStalledError extends ShutdownError {
  constructor(name: string) {
    super(
      'ERR_CLEANUP_STALLED',
      `Cleanup "${name}" awaits something nothing can settle (the event loop emptied)`,
    )
  }
}

/** The overall shutdown deadline passed while a cleanup was still running. */
export class ShutdownDeadlineError extends ShutdownError {
  readonly timeoutMs: number

  constructor(timeoutMs: number) {
    super(
      'ERR_SHUTDOWN_DEADLINE',
      `The shutdown deadline of ${timeoutMs} ms passed before the cleanup settled`,
    )
    this.timeoutMs = timeoutMs
  }
}

/** A genuine second signal forced the exit while the cleanup was still running. */
export class ShutdownForcedError extends ShutdownError {
  constructor(signal: string) {
    super('ERR_SHUTDOWN_FORCED', `A second ${signal} forced the exit before the cleanup settled`)
  }
}
