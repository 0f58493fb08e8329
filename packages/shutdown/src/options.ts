import type { Writable } from 'node:stream'
import type { Clock } from './clock.js'
import type { ShutdownSignal } from './exit-codes.js'
import type { CleanupPhase } from './phase.js'
import type { ShutdownReport } from './report.js'
import type { ShutdownReason } from './reason.js'

export type { CleanupPhase } from './phase.js'

/** What each cleanup receives. */
export interface CleanupContext {
  /**
   * Aborted when this cleanup's own timeout passes, when the overall deadline passes, or when a second
   * signal forces the exit (`signal.reason` is a `ShutdownError` whose `code` says which). Stop writing
   * when it fires: the exit no longer waits for you.
   */
  readonly signal: AbortSignal
  /** Why the shutdown started. */
  readonly reason: ShutdownReason
  /** Milliseconds this cleanup may take: its own timeout, or less if the overall deadline is nearer. */
  readonly timeoutMs: number
}

export type CleanupFunction = (context: CleanupContext) => unknown

/** Options of `registerCleanup(fn, options)`. */
export interface CleanupOptions {
  /**
   * Name shown in the report. Give every cleanup one: it is how a hung cleanup is identified.
   * @default fn.name, or `cleanup-<n>` for an anonymous function
   */
  readonly name?: string
  /**
   * Milliseconds this cleanup may run before it is reported `timed-out`, its signal is aborted and the
   * next cleanup starts. Always also capped by the overall deadline.
   * @default the instance's `cleanupTimeoutMs` (2000)
   */
  readonly timeoutMs?: number
  /**
   * Phase to run in; within a phase, cleanups run one at a time in reverse order of registration.
   * Use `'last'` for what must see everything else finish first (the transcript flush).
   * @default 'normal'
   */
  readonly phase?: CleanupPhase
  /**
   * Synchronous last-chance variant, run on the process's `'exit'` event when the async cleanup did not
   * complete: third-party code called `process.exit()` directly, the process ended while the cleanup was
   * pending, or the cleanup timed out. Only synchronous work survives there (`fs.writeSync`, `flushSync`).
   * @default none
   */
  readonly sync?: () => void
}

/** Options of `createShutdown(options)`. */
export interface ShutdownOptions {
  /**
   * Overall wall-clock bound of `gracefulExit`, in milliseconds: cleanups plus the stdout/stderr drain.
   * Armed before the first cleanup runs. On Windows a SIGHUP (console closed) caps it at 8000, below the
   * ~10 s after which Windows kills the process.
   * @default 5000
   */
  readonly timeoutMs?: number
  /**
   * Default per-cleanup timeout in milliseconds (a cleanup's own `timeoutMs` overrides it).
   * @default 2000
   */
  readonly cleanupTimeoutMs?: number
  /**
   * Share of `timeoutMs` kept for draining stdout/stderr, in milliseconds. Cleanups get
   * `timeoutMs - min(drainTimeoutMs, timeoutMs / 2)`; the drain gets whatever is left of `timeoutMs`.
   * @default 1000
   */
  readonly drainTimeoutMs?: number
  /**
   * Called synchronously with the report of every cleanup pass that ends in an exit, just before the
   * drain (so what it writes to stdout/stderr is drained too). Exceptions it throws are written to stderr.
   * @default writes `formatReport(report)` to stderr when anything went wrong (a cleanup failed, timed
   *   out or did not start, the exit was forced, or another reason such as a fatal error arrived);
   *   silent when everything went well
   */
  readonly onReport?: (report: ShutdownReport) => void
  /**
   * The process to listen on and to exit. Tests pass a fake; see `ProcessPort`.
   * @default globalThis.process
   */
  readonly process?: ProcessPort
  /**
   * Stream drained before exit and attributed as `stdout` in EPIPE reasons. `null` skips it.
   * @default process.stdout
   */
  readonly stdout?: Writable | null
  /**
   * Stream drained before exit, used for the default report and fatal-error output. `null` skips it.
   * @default process.stderr
   */
  readonly stderr?: Writable | null
  /**
   * Time source and timers.
   * @default performance.now() and the global setTimeout/clearTimeout
   */
  readonly clock?: Clock
  /**
   * After a signal's cleanups, end by that signal (remove our handler and send it to ourselves, as the
   * last `'exit'` listener) so the parent sees a death by signal: a shell stops a script on Ctrl-C, a
   * supervisor logs `SIGTERM`. `false` exits with 128 + the signal's number instead, which `$?` shows the
   * same way. Where re-raising is impossible (Windows, or a `process` without `kill`), 128 + n is used.
   * @default true
   */
  readonly reraiseSignals?: boolean
}

/** Options of `runExitCleanup(options)`. */
export interface RunCleanupOptions {
  /**
   * Wall-clock bound of this cleanup pass, in milliseconds.
   * @default the instance's `timeoutMs` (5000)
   */
  readonly timeoutMs?: number
}

/** Options of `gracefulExit(code, options)` (`code` omitted: `process.exitCode`, else 0). */
export interface GracefulExitOptions {
  /**
   * Overall bound of this exit (cleanups + drain), in milliseconds.
   * @default the instance's `timeoutMs` (5000)
   */
  readonly timeoutMs?: number
}

/** Options of `installSignalHandlers(options)`. */
export interface SignalHandlerOptions {
  /**
   * Signals to handle. After cleanup each ends the process by the same signal (see `reraiseSignals`);
   * the report's `exitCode` is 128 + its number.
   * @default ['SIGINT', 'SIGTERM', 'SIGHUP'], plus 'SIGBREAK' on Windows
   */
  readonly signals?: readonly ShutdownSignal[]
  /**
   * A repeat of the same signal within this many milliseconds of the first is the same delivery
   * (`npm run`/`pnpm run` deliver one Ctrl-C twice) and is ignored. 0 turns de-duplication off.
   * @default 200
   */
  readonly duplicateWindowMs?: number
  /**
   * What a genuine second signal does while the cleanup runs: `'force'` exits at once with the first
   * reason's code (sync variants still run); `'ignore'` records it in the report and keeps waiting
   * (the deadline still bounds the wait).
   * @default 'force'
   */
  readonly secondSignal?: 'force' | 'ignore'
}

/** Options of `guardEpipe(stream, options)`. */
export interface EpipeOptions {
  /**
   * Exit code when this stream's reader went away. 0 treats `| head -1` as success; `EXIT_CODE_SIGPIPE`
   * (141) is what a shell reports for a writer killed by SIGPIPE.
   * @default `process.exitCode` when the EPIPE arrives, else 0
   */
  readonly exitCode?: number
}

/** Options of `installFatalHandlers(options)`. */
export interface FatalHandlerOptions {
  /**
   * Called synchronously with every uncaught exception or unhandled rejection, before the shutdown
   * starts (or, during one, before it is recorded in the report).
   * @default writes `<origin>: <util.inspect(error)>` to stderr, as Node would have
   */
  readonly onFatal?: (error: unknown, origin: 'uncaughtException' | 'unhandledRejection') => void
}

/**
 * The part of `process` this package uses. The real `process` satisfies it; tests pass a fake whose
 * `exit` records the code instead of ending the test runner.
 */
export interface ProcessPort {
  readonly platform: string
  /** With `kill`, lets a signal exit re-raise the signal; without, it exits 128 + n. */
  readonly pid?: number
  exitCode?: number | string | null | undefined
  exit(code?: number): void
  kill?(pid: number, signal: string): unknown
  /** Used just before re-raising a signal, so no leftover listener catches it. */
  removeAllListeners?(event: string): unknown
  on(event: string, listener: (...args: unknown[]) => void): unknown
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown
}
