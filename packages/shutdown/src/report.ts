import type { CleanupPhase } from './phase.js'
import type { ShutdownReason } from './reason.js'

/**
 * `ok`: settled. `failed`: threw or rejected. `timed-out`: still running when its own timeout, the
 * deadline or a forced exit came, or when the event loop emptied (it could never settle). `not-started`: the deadline (or a forced exit) came first.
 */
export type CleanupStatus = 'ok' | 'failed' | 'timed-out' | 'not-started'

export interface CleanupOutcome {
  readonly name: string
  readonly phase: CleanupPhase
  readonly status: CleanupStatus
  /** Milliseconds from its start until it settled or was given up on; 0 when not started. */
  readonly durationMs: number
  /** What it threw, or the `ShutdownError` it was given up with (`code` says why). */
  readonly error?: unknown
}

/** The record of one cleanup pass. Plain data: safe to `JSON.stringify` (errors aside) or `formatReport`. */
export interface ShutdownReport {
  /**
   * What started the shutdown. For an exit, the reason that owns the exit code (even when the exit
   * joined a pass that `runExitCleanup()` had started); for `runExitCleanup()` itself, `{ type: 'run' }`.
   */
  readonly reason: ShutdownReason
  /** The code the process exits with; `null` for a `runExitCleanup()` pass with no exit. */
  readonly exitCode: number | null
  /** Milliseconds the cleanup pass took (the drain is not included). */
  readonly durationMs: number
  /** One entry per cleanup, in the order they ran (then the ones that never started). */
  readonly cleanups: readonly CleanupOutcome[]
  /** Every other shutdown request that arrived after the first, in arrival order. */
  readonly laterReasons: readonly ShutdownReason[]
  /** `true` when the overall deadline passed before every cleanup settled. */
  readonly deadlineExceeded: boolean
  /** `true` when a second signal forced the exit before the pass ended. */
  readonly forced: boolean
}

/** `true` when the report has anything a user should see: a cleanup not `ok`, a forced exit, another reason. */
export function reportHasProblems(report: ShutdownReport): boolean {
  return (
    report.forced ||
    report.deadlineExceeded ||
    report.laterReasons.some((later) => !joinsQuietly(later, report.exitCode)) ||
    report.reason.type === 'fatal' ||
    report.reason.type === 'process-exit' ||
    report.cleanups.some((c) => c.status !== 'ok')
  )
}

/**
 * The program's own `gracefulExit()` asking for the exit already under way, with its code: the normal end of
 * a loop that a cleanup stopped (Ctrl-C, `| head -1`), not something that went wrong. Any other later
 * reason — another signal, an error, a `process.exit()`, a `gracefulExit` asking for another code — is.
 */
function joinsQuietly(later: ShutdownReason, exitCode: number | null): boolean {
  return later.type === 'exit' && later.code === exitCode
}
