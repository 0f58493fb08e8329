import type { Writable } from 'node:stream'
import { CleanupPass, type PassResult } from './cleanup-pass.js'
import { armTimer, type Clock } from './clock.js'
import { drainStream } from './drain.js'
import { watchEpipe } from './epipe.js'
import { ShutdownForcedError } from './errors.js'
import { currentExitCode, type ShutdownSignal } from './exit-codes.js'
import { ExitTriggers } from './exit-triggers.js'
import { ListenerBag } from './listener-bag.js'
import type {
  CleanupFunction,
  CleanupOptions,
  EpipeOptions,
  FatalHandlerOptions,
  GracefulExitOptions,
  ProcessPort,
  RunCleanupOptions,
  ShutdownOptions,
  SignalHandlerOptions,
} from './options.js'
import { assertKnownKeys, FOREIGN } from './known-keys.js'
import { ProcessExit } from './process-exit.js'
import { describeReason, type ShutdownReason } from './reason.js'
import { CleanupRegistry } from './registry.js'
import { ReportChannel } from './report-channel.js'
import type { ShutdownReport } from './report.js'
import {
  CLEANUP_OPTIONS,
  PHASES,
  resolveShutdownOptions,
  TIMEOUT_OPTIONS,
  WINDOWS_CONSOLE_CLOSE_BUDGET_MS,
} from './shutdown-settings.js'
import {
  assertExitCode,
  assertFunction,
  assertOneOf,
  assertOptionalFunction,
  assertOptions,
  assertString,
  assertTimeout,
  assertWritable,
} from './validate.js'

/** Creates an isolated shutdown coordinator. The module-level functions use one default instance. */
export function createShutdown(options?: ShutdownOptions): Shutdown {
  return new Shutdown(options)
}

/** A registry of cleanups plus the machinery that runs them once and exits once. */
export class Shutdown {
  readonly #process: ProcessPort
  readonly #stdout: Writable | null
  readonly #stderr: Writable | null
  readonly #clock: Clock
  readonly #timeoutMs: number
  readonly #cleanupTimeoutMs: number
  readonly #drainTimeoutMs: number
  // The one real exit, the hold on process.exit() and what runs inside the 'exit' event.
  readonly #processExit: ProcessExit
  // The report, once per exit, and notes on stderr.
  readonly #out: ReportChannel
  readonly #registry = new CleanupRegistry()
  // Signals and fatal errors: what starts an exit from outside the program's own code.
  readonly #triggers: ExitTriggers
  // 'beforeExit' while a pass runs: the loop emptied, so the cleanup in flight can never settle.
  readonly #stallListener: ListenerBag
  // The current cleanup pass: every caller shares it, so each cleanup runs at most once.
  #pass: CleanupPass | undefined
  // Set by the first reason that asks to exit; it owns the exit code, later ones only get recorded.
  // `code` may still rise from 0 to a failure code when a held process.exit(n) asks for one.
  #exit:
    { code: number; readonly reason: ShutdownReason; readonly promise: Promise<ShutdownReport> } | undefined
  readonly #laterReasons: ShutdownReason[] = []

  constructor(options: ShutdownOptions = {}) {
    const settings = resolveShutdownOptions(options)
    this.#timeoutMs = settings.timeoutMs
    this.#cleanupTimeoutMs = settings.cleanupTimeoutMs
    this.#drainTimeoutMs = settings.drainTimeoutMs
    this.#out = new ReportChannel(settings.stderr, settings.onReport)
    this.#process = settings.process
    this.#stdout = settings.stdout
    this.#stderr = settings.stderr
    this.#clock = settings.clock
    this.#processExit = new ProcessExit({
      process: this.#process,
      registry: this.#registry,
      reraiseSignals: settings.reraiseSignals,
      onExitCall: this.#onExitCall,
      writeStderr: (text) => this.#out.writeStderr(text),
    })
    const exits = (): Shutdown => this
    this.#triggers = new ExitTriggers(this.#process, this.#clock, {
      begin: (reason, code) => void this.#beginExit(reason, code, undefined),
      get underway() {
        return exits().#exit !== undefined
      },
      recordLater: (reason) => void this.#laterReasons.push(reason),
      force: (signal) => this.#forceExit(signal),
      writeStderr: (text) => this.#out.writeStderr(text),
    })
    this.#stallListener = new ListenerBag(this.#process)
  }

  /**
   * Registers a cleanup to run once on shutdown. Returns the function that unregisters it.
   * Cleanups registered while a pass is running are run by that pass.
   */
  registerCleanup(fn: CleanupFunction, options: CleanupOptions = {}): () => void {
    assertFunction('fn', fn)
    assertOptions('options', options)
    assertKnownKeys('registerCleanup(fn, options)', options, CLEANUP_OPTIONS, FOREIGN.registerCleanup)
    const entry = this.#registry.add({
      fn,
      name:
        options.name === undefined
          ? fn.name || `cleanup-${this.#registry.nextId}`
          : assertString('name', options.name),
      phase: options.phase === undefined ? 'normal' : assertOneOf('phase', options.phase, PHASES),
      timeoutMs: options.timeoutMs === undefined ? undefined : assertTimeout('timeoutMs', options.timeoutMs),
      sync: assertOptionalFunction('sync', options.sync),
    })
    if (entry.sync) this.#processExit.syncVariantsChanged()
    return () => {
      if (this.#registry.remove(entry) && entry.sync) this.#processExit.syncVariantsChanged()
    }
  }

  /**
   * Runs every registered cleanup once (bounded by `timeoutMs`) and resolves with the report; does not
   * exit. Concurrent and later calls share the same pass. While it runs, a cleanup that awaits something
   * nothing can settle is given up on when the event loop empties (so the process neither ends mid-pass
   * nor waits for nothing), and a `process.exit()` call is held and becomes a graceful exit.
   */
  runExitCleanup(options: RunCleanupOptions = {}): Promise<ShutdownReport> {
    // Not `async`: bad options must throw at the call, not surface later as a rejection.
    assertOptions('options', options)
    assertKnownKeys('runExitCleanup(options)', options, TIMEOUT_OPTIONS, FOREIGN.exit)
    const timeoutMs =
      options.timeoutMs === undefined ? this.#timeoutMs : assertTimeout('timeoutMs', options.timeoutMs)
    return this.#startPass({ type: 'run' }, timeoutMs).done.then((result) =>
      this.#compose(result, this.#exit?.code ?? null, false),
    )
  }

  /**
   * Sets `process.exitCode`, runs the cleanups, reports, drains stdout/stderr and exits, all within the
   * overall deadline. Every caller gets the same promise; the first exit reason owns the exit code. With
   * a real process it never resolves (the process exits); with an injected one it resolves with the report.
   * Without `code`, exits with `process.exitCode` (as `process.exit()` does), else 0.
   */
  gracefulExit(code?: number, options: GracefulExitOptions = {}): Promise<ShutdownReport> {
    const exitCode =
      code === undefined ? currentExitCode(this.#process.exitCode) : assertExitCode('code', code)
    assertOptions('options', options)
    assertKnownKeys('gracefulExit(code, options)', options, TIMEOUT_OPTIONS, FOREIGN.exit)
    const timeoutMs =
      options.timeoutMs === undefined ? undefined : assertTimeout('timeoutMs', options.timeoutMs)
    return this.#beginExit({ type: 'exit', code: exitCode }, exitCode, timeoutMs)
  }

  /**
   * Replaces the `onReport` hook (the way to set it on the default instance); `undefined` restores the
   * default (print the report to stderr when something went wrong).
   */
  setReportHandler(handler: ((report: ShutdownReport) => void) | undefined): void {
    this.#out.setHandler(assertOptionalFunction('handler', handler))
  }

  /**
   * Handles SIGINT, SIGTERM and SIGHUP (plus SIGBREAK on Windows): the first starts a graceful exit with
   * 128 + the signal's number. Calling it again replaces the previous installation. Returns the uninstaller.
   */
  installSignalHandlers(options: SignalHandlerOptions = {}): () => void {
    return this.#triggers.installSignalHandlers(options)
  }

  /**
   * Stands in for a signal where none arrives (a terminal UI in raw mode turns Ctrl-C into a keypress).
   * Same rules as a real signal: exit code, de-duplication, a genuine second trigger forces the exit.
   */
  triggerShutdown(signal: ShutdownSignal = 'SIGINT'): void {
    this.#triggers.trigger(signal)
  }

  /**
   * Makes EPIPE on `stream` (its reader went away, as in `agent | head -1`) a normal ending: the stream is
   * destroyed so later writes are dropped, and a graceful exit with `exitCode` starts, so cleanups still
   * run. Other stream errors are left to their owners. Returns the function that removes the guard.
   */
  guardEpipe(stream: Writable, options: EpipeOptions = {}): () => void {
    assertWritable('stream', stream)
    assertOptions('options', options)
    assertKnownKeys('guardEpipe(stream, options)', options, ['exitCode'])
    const fixed = options.exitCode === undefined ? undefined : assertExitCode('exitCode', options.exitCode)
    const name = stream === this.#stdout ? 'stdout' : stream === this.#stderr ? 'stderr' : 'other'
    return watchEpipe(stream, () => {
      // Read when the pipe breaks: a failure the program recorded by then stays a failure.
      const code = fixed ?? currentExitCode(this.#process.exitCode)
      void this.#beginExit({ type: 'epipe', stream: name }, code, undefined)
    })
  }

  /**
   * Opt-in: an uncaught exception or unhandled rejection is printed (see `onFatal`), then starts a
   * graceful exit with code 1, or is recorded in the report when a shutdown is already under way.
   * Returns the uninstaller.
   */
  installFatalHandlers(options: FatalHandlerOptions = {}): () => void {
    return this.#triggers.installFatalHandlers(options)
  }

  #beginExit(reason: ShutdownReason, code: number, timeoutMs: number | undefined): Promise<ShutdownReport> {
    if (this.#exit !== undefined) {
      this.#laterReasons.push(reason)
      return this.#exit.promise
    }
    // Before any async work: if the event loop drains mid-cleanup, the natural exit uses this code.
    this.#process.exitCode = code
    let budget = timeoutMs ?? this.#timeoutMs
    if (this.#process.platform === 'win32' && reason.type === 'signal' && reason.signal === 'SIGHUP') {
      budget = Math.min(budget, WINDOWS_CONSOLE_CLOSE_BUDGET_MS)
    }
    this.#hold()
    const promise = this.#exitFlow(reason, code, budget)
    this.#exit = { code, reason, promise }
    return promise
  }

  async #exitFlow(reason: ShutdownReason, code: number, budgetMs: number): Promise<ShutdownReport> {
    const startedAt = this.#clock.now()
    const drainReserveMs = Math.min(this.#drainTimeoutMs, budgetMs / 2)
    const cleanupBudgetMs = budgetMs - drainReserveMs
    const pass = this.#startPass(reason, cleanupBudgetMs)
    // A pass started earlier by runExitCleanup() may have a longer bound than this exit allows.
    const disarm = armTimer(this.#clock, cleanupBudgetMs, () => pass.expire(cleanupBudgetMs))
    const result = await pass.done
    disarm()
    // A forced exit may have reported (and exited) already; callers get the report that was delivered.
    // The code is read again: a held process.exit(n) may have turned a success into a failure.
    const report = this.#out.deliver(this.#compose(result, this.#exit?.code ?? code, false, reason))
    const drainMs = budgetMs - (this.#clock.now() - startedAt)
    const streams = new Set([this.#stdout, this.#stderr].filter((s): s is Writable => s !== null))
    await Promise.all([...streams].map((stream) => drainStream(stream, drainMs, this.#clock)))
    this.#finish(this.#exit?.code ?? code)
    return report
  }

  /**
   * The pass in progress, or a new one. A finished pass is reused unless cleanups were registered after
   * it (they would otherwise never run); the new pass runs only those and reports the earlier outcomes too.
   */
  #startPass(reason: ShutdownReason, timeoutMs: number): CleanupPass {
    const previous = this.#pass
    if (previous !== undefined && !(previous.finished && this.#registry.hasPending())) return previous
    const pass = new CleanupPass({
      registry: this.#registry,
      clock: this.#clock,
      reason,
      timeoutMs,
      defaultCleanupTimeoutMs: this.#cleanupTimeoutMs,
      ...(previous && { earlier: previous.outcomes }),
    })
    this.#pass = pass
    this.#hold()
    // Registered before any caller's reaction to `done`: code after `await runExitCleanup()` that calls
    // process.exit() itself must reach the real one.
    void pass.done.then(() => {
      if (this.#pass === pass && this.#exit === undefined) this.#release()
    })
    return pass
  }

  /**
   * For the duration of a pass or an exit: give up on a cleanup that awaits something nothing can settle
   * when the loop empties, and hold process.exit() calls.
   */
  #hold(): void {
    this.#processExit.hold()
    // Node emits 'beforeExit' only when nothing is left to keep the loop alive (never after exit()).
    // Without this, `await runExitCleanup()` with such a cleanup just ended the process mid-pass (exit 13
    // in ESM, 0 in CommonJS) and the code after the await never ran.
    if (this.#stallListener.size === 0) this.#stallListener.add('beforeExit', () => this.#pass?.stall())
  }

  #release(): void {
    this.#processExit.release()
    this.#stallListener.removeAll()
  }

  /**
   * A process.exit() held during a pass or an exit. It is named in the report (as the reason, or among
   * the later reasons), and the one real exit happens once the rest has run. The first reason still owns
   * the code, except that a failure is never turned into a success: a non-zero request replaces a 0.
   */
  readonly #onExitCall = (requested: unknown): void => {
    const code = currentExitCode(requested ?? this.#process.exitCode)
    const cleanup = this.#processExit.syncRunning ?? this.#pass?.currentName
    const reason: ShutdownReason = { type: 'process-exit', code, ...(cleanup !== undefined && { cleanup }) }
    if (this.#processExit.inExitEvent) {
      // Only synchronous work is left: Node exits with process.exitCode once every 'exit' listener ran.
      this.#laterReasons.push(reason)
      if (currentExitCode(this.#process.exitCode) === 0 && code !== 0) this.#process.exitCode = code
      this.#out.writeStderr(`${describeReason(reason)} during exit: held until the other exit work ran\n`)
      return
    }
    if (this.#exit === undefined) {
      void this.#beginExit(reason, code, undefined)
      return
    }
    this.#laterReasons.push(reason)
    if (this.#exit.code === 0 && code !== 0) {
      this.#exit.code = code
      this.#process.exitCode = code
    }
  }

  #forceExit(signal: ShutdownSignal): void {
    if (this.#processExit.exited || this.#exit === undefined) return
    const result = this.#pass?.stop(new ShutdownForcedError(signal))
    if (result) this.#out.deliver(this.#compose(result, this.#exit.code, true, this.#exit.reason))
    this.#finish(this.#exit.code)
  }

  /**
   * The report of `result`. For an exit, the reason is the one that owns the exit code, even when the
   * pass it joined was started earlier by `runExitCleanup()`.
   */
  #compose(
    result: PassResult,
    exitCode: number | null,
    forced: boolean,
    reason: ShutdownReason = result.reason,
  ): ShutdownReport {
    return { ...result, reason, exitCode, laterReasons: [...this.#laterReasons], forced }
  }

  #finish(code: number): void {
    if (this.#processExit.exited) return
    // Hand signals back to Node's defaults (and stop trapping errors) before leaving.
    this.#triggers.removeAll()
    this.#stallListener.removeAll()
    const reason = this.#exit?.reason
    this.#processExit.exit(code, reason?.type === 'signal' ? reason.signal : undefined)
  }
}
