import type { ShutdownSignal } from './exit-codes.js'

/** Why a shutdown started (or, in `ShutdownReport.laterReasons`, what else asked for one meanwhile). */
export type ShutdownReason =
  /** `gracefulExit(code)` was called. */
  | { readonly type: 'exit'; readonly code: number }
  /** A signal arrived (or `triggerShutdown(signal)` stood in for one). */
  | { readonly type: 'signal'; readonly signal: ShutdownSignal }
  /** The reader of a guarded stream went away (EPIPE). */
  | { readonly type: 'epipe'; readonly stream: 'stdout' | 'stderr' | 'other' }
  /** An uncaught exception or unhandled rejection, with fatal-error handling enabled. */
  | {
      readonly type: 'fatal'
      readonly origin: 'uncaughtException' | 'unhandledRejection'
      readonly error: unknown
    }
  /** `runExitCleanup()` was called directly, without asking to exit. */
  | { readonly type: 'run' }
  /**
   * `process.exit(code)` was called while the shutdown held it (during a cleanup pass, or on `'exit'`):
   * held until the remaining work ran. `cleanup` names the cleanup or sync variant running at the time.
   */
  | { readonly type: 'process-exit'; readonly code: number; readonly cleanup?: string }

/** One line naming a reason, e.g. `SIGINT`, `exit(0)`, `EPIPE on stdout`. */
export function describeReason(reason: ShutdownReason): string {
  switch (reason.type) {
    case 'exit':
      return `exit(${reason.code})`
    case 'signal':
      return reason.signal
    case 'epipe':
      return `EPIPE on ${reason.stream}`
    case 'fatal':
      return `${reason.origin}: ${describeError(reason.error)}`
    case 'run':
      return 'runExitCleanup()'
    case 'process-exit':
      return `process.exit(${reason.code})${reason.cleanup === undefined ? '' : ` in cleanup "${reason.cleanup}"`}`
  }
}

/** `Name: message` for errors, `String(value)` for anything else thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  try {
    return String(error)
  } catch {
    // Object.create(null) and friends: a description must never throw while reporting.
    return Object.prototype.toString.call(error)
  }
}
