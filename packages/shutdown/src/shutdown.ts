import type { Writable } from 'node:stream'
import { inspect } from 'node:util'
import { CleanupPass, type PassResult } from './cleanup-pass.js'
import { armTimer, systemClock, type Clock } from './clock.js'
import { drainStream } from './drain.js'
import { watchEpipe } from './epipe.js'
import { ShutdownForcedError } from './errors.js'
import { EXIT_CODE_FATAL, exitCodeForSignal, type ShutdownSignal } from './exit-codes.js'
import { formatReport } from './format-report.js'
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
import type { ShutdownReason } from './reason.js'
import { CleanupRegistry } from './registry.js'
import { reportHasProblems, type ShutdownReport } from './report.js'
import { SignalGate } from './signal-gate.js'
import {
  assertDuration,
  assertExitCode,
  assertFunction,
  assertOneOf,
  assertOptionalFunction,
  assertOptions,
  assertSignal,
  assertSignals,
  assertString,
  assertTimeout,
  assertWritable,
} from './validate.js'

const DEFAULT_TIMEOUT_MS = 5000
const DEFAULT_CLEANUP_TIMEOUT_MS = 2000
// exit-hook 5.1 settled on 1 s for its stdio flush; ours is carved out of the overall deadline instead.
const DEFAULT_DRAIN_TIMEOUT_MS = 1000
// npm/pnpm deliver one Ctrl-C twice within milliseconds; a human's second press takes far longer.
const DEFAULT_DUPLICATE_WINDOW_MS = 200
// Windows kills a process about 10 s after its console closes (delivered as SIGHUP); finish well before.
const WINDOWS_CONSOLE_CLOSE_BUDGET_MS = 8000
const PHASES = ['first', 'normal', 'last'] as const

type FatalOrigin = 'uncaughtException' | 'unhandledRejection'

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
  #onReport: (report: ShutdownReport) => void
  readonly #registry = new CleanupRegistry()
  readonly #signalGate = new SignalGate(DEFAULT_DUPLICATE_WINDOW_MS)
  readonly #signalListeners: ListenerBag
  readonly #fatalListeners: ListenerBag
  // 'beforeExit' while an exit runs: the loop emptied, so the cleanup in flight can never settle.
  readonly #stallListener: ListenerBag
  // The current cleanup pass: every caller shares it, so each cleanup runs at most once.
  #pass: CleanupPass | undefined
  // Set by the first reason that asks to exit; it owns the exit code, later ones only get recorded.
  #exit:
    | { readonly code: number; readonly reason: ShutdownReason; readonly promise: Promise<ShutdownReport> }
    | undefined
  readonly #laterReasons: ShutdownReason[] = []
  #secondSignal: 'force' | 'ignore' = 'force'
  // process.exit must be called once even when a forced exit races the graceful path.
  #exited = false
  // The report delivered to onReport: once per exit, even when a forced exit races the graceful path.
  #reported: ShutdownReport | undefined
  // The 'exit' listener that runs sync variants is only present while a sync variant is registered.
  #exitListenerInstalled = false

  constructor(options: ShutdownOptions = {}) {
    assertOptions('options', options)
    this.#timeoutMs = assertTimeout('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    this.#cleanupTimeoutMs = assertTimeout(
      'cleanupTimeoutMs',
      options.cleanupTimeoutMs ?? DEFAULT_CLEANUP_TIMEOUT_MS,
    )
    this.#drainTimeoutMs = assertDuration(
      'drainTimeoutMs',
      options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
    )
    this.#onReport = assertOptionalFunction('onReport', options.onReport) ?? this.#defaultOnReport
    this.#process = options.process ?? globalThis.process
    this.#stdout = options.stdout === undefined ? globalThis.process.stdout : options.stdout
    this.#stderr = options.stderr === undefined ? globalThis.process.stderr : options.stderr
    this.#clock = options.clock ?? systemClock
    this.#signalListeners = new ListenerBag(this.#process)
    this.#fatalListeners = new ListenerBag(this.#process)
    this.#stallListener = new ListenerBag(this.#process)
  }

  /**
   * Registers a cleanup to run once on shutdown. Returns the function that unregisters it.
   * Cleanups registered while a pass is running are run by that pass.
   */
  registerCleanup(fn: CleanupFunction, options: CleanupOptions = {}): () => void {
    assertFunction('fn', fn)
    assertOptions('options', options)
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
    if (entry.sync) this.#syncExitListener()
    return () => {
      if (this.#registry.remove(entry) && entry.sync) this.#syncExitListener()
    }
  }

  /**
   * Runs every registered cleanup once (bounded by `timeoutMs`) and resolves with the report; does not
   * exit. Concurrent and later calls share the same pass.
   */
  runExitCleanup(options: RunCleanupOptions = {}): Promise<ShutdownReport> {
    // Not `async`: bad options must throw at the call, not surface later as a rejection.
    assertOptions('options', options)
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
   */
  gracefulExit(code = 0, options: GracefulExitOptions = {}): Promise<ShutdownReport> {
    assertExitCode('code', code)
    assertOptions('options', options)
    const timeoutMs =
      options.timeoutMs === undefined ? undefined : assertTimeout('timeoutMs', options.timeoutMs)
    return this.#beginExit({ type: 'exit', code }, code, timeoutMs)
  }

  /**
   * Replaces the `onReport` hook (the way to set it on the default instance); `undefined` restores the
   * default (print the report to stderr when something went wrong).
   */
  setReportHandler(handler: ((report: ShutdownReport) => void) | undefined): void {
    this.#onReport = assertOptionalFunction('handler', handler) ?? this.#defaultOnReport
  }

  /**
   * Handles SIGINT, SIGTERM and SIGHUP (plus SIGBREAK on Windows): the first starts a graceful exit with
   * 128 + the signal's number. Calling it again replaces the previous installation. Returns the uninstaller.
   */
  installSignalHandlers(options: SignalHandlerOptions = {}): () => void {
    assertOptions('options', options)
    const signals =
      options.signals === undefined ? this.#defaultSignals() : assertSignals('signals', options.signals)
    this.#signalGate.windowMs = assertDuration(
      'duplicateWindowMs',
      options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS,
    )
    this.#secondSignal = assertOneOf('secondSignal', options.secondSignal ?? 'force', [
      'force',
      'ignore',
    ] as const)
    this.#signalListeners.removeAll()
    for (const signal of new Set(signals)) this.#signalListeners.add(signal, () => this.#onSignal(signal))
    return () => this.#signalListeners.removeAll()
  }

  /**
   * Stands in for a signal where none arrives (a terminal UI in raw mode turns Ctrl-C into a keypress).
   * Same rules as a real signal: exit code, de-duplication, a genuine second trigger forces the exit.
   */
  triggerShutdown(signal: ShutdownSignal = 'SIGINT'): void {
    this.#onSignal(assertSignal('signal', signal))
  }

  /**
   * Makes EPIPE on `stream` (its reader went away, as in `agent | head -1`) a normal ending: the stream is
   * destroyed so later writes are dropped, and a graceful exit with `exitCode` starts, so cleanups still
   * run. Other stream errors are left to their owners. Returns the function that removes the guard.
   */
  guardEpipe(stream: Writable, options: EpipeOptions = {}): () => void {
    assertWritable('stream', stream)
    assertOptions('options', options)
    const code = assertExitCode('exitCode', options.exitCode ?? 0)
    const name = stream === this.#stdout ? 'stdout' : stream === this.#stderr ? 'stderr' : 'other'
    return watchEpipe(stream, () => void this.#beginExit({ type: 'epipe', stream: name }, code, undefined))
  }

  /**
   * Opt-in: an uncaught exception or unhandled rejection is printed (see `onFatal`), then starts a
   * graceful exit with code 1, or is recorded in the report when a shutdown is already under way.
   * Returns the uninstaller.
   */
  installFatalHandlers(options: FatalHandlerOptions = {}): () => void {
    assertOptions('options', options)
    const onFatal = assertOptionalFunction('onFatal', options.onFatal) ?? this.#printFatal
    this.#fatalListeners.removeAll()
    const handle = (error: unknown, origin: FatalOrigin): void => {
      try {
        onFatal(error, origin)
      } catch (hookError) {
        this.#writeStderr(`onFatal threw: ${inspect(hookError)}\n`)
      }
      void this.#beginExit({ type: 'fatal', origin, error }, EXIT_CODE_FATAL, undefined)
    }
    this.#fatalListeners.add('uncaughtException', (error: unknown) => handle(error, 'uncaughtException'))
    this.#fatalListeners.add('unhandledRejection', (reason: unknown) => handle(reason, 'unhandledRejection'))
    return () => this.#fatalListeners.removeAll()
  }

  #defaultSignals(): ShutdownSignal[] {
    const signals: ShutdownSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
    if (this.#process.platform === 'win32') signals.push('SIGBREAK')
    return signals
  }

  #onSignal(signal: ShutdownSignal): void {
    const verdict = this.#signalGate.classify(signal, this.#clock.now())
    if (verdict === 'duplicate') return
    if (this.#exit === undefined) {
      void this.#beginExit({ type: 'signal', signal }, exitCodeForSignal(signal), undefined)
      return
    }
    this.#laterReasons.push({ type: 'signal', signal })
    if (verdict === 'repeat' && this.#secondSignal === 'force') this.#forceExit(signal)
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
    // Node emits 'beforeExit' only when nothing is left to keep the loop alive (never after exit()).
    this.#stallListener.add('beforeExit', () => this.#pass?.stall())
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
    const report = this.#report(this.#compose(result, code, false, reason))
    const drainMs = budgetMs - (this.#clock.now() - startedAt)
    const streams = new Set([this.#stdout, this.#stderr].filter((s): s is Writable => s !== null))
    await Promise.all([...streams].map((stream) => drainStream(stream, drainMs, this.#clock)))
    this.#finish(code)
    return report
  }

  /**
   * The pass in progress, or a new one. A finished pass is reused unless cleanups were registered after
   * it (they would otherwise never run); the new pass runs only those and reports the earlier outcomes too.
   */
  #startPass(reason: ShutdownReason, timeoutMs: number): CleanupPass {
    const previous = this.#pass
    if (previous !== undefined && !(previous.finished && this.#registry.hasPending())) return previous
    this.#pass = new CleanupPass({
      registry: this.#registry,
      clock: this.#clock,
      reason,
      timeoutMs,
      defaultCleanupTimeoutMs: this.#cleanupTimeoutMs,
      ...(previous && { earlier: previous.outcomes }),
    })
    return this.#pass
  }

  #forceExit(signal: ShutdownSignal): void {
    if (this.#exited || this.#exit === undefined) return
    const result = this.#pass?.stop(new ShutdownForcedError(signal))
    if (result) this.#report(this.#compose(result, this.#exit.code, true, this.#exit.reason))
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

  /** Delivers `report` to onReport unless one was delivered already; returns the one delivered. */
  #report(report: ShutdownReport): ShutdownReport {
    if (this.#reported) return this.#reported
    this.#reported = report
    try {
      this.#onReport(report)
    } catch (error) {
      this.#writeStderr(`onReport threw: ${inspect(error)}\n`)
    }
    return report
  }

  #finish(code: number): void {
    if (this.#exited) return
    this.#exited = true
    // Hand signals back to Node's defaults (and stop trapping errors) before leaving.
    this.#signalListeners.removeAll()
    this.#fatalListeners.removeAll()
    this.#stallListener.removeAll()
    this.#process.exit(code)
  }

  #syncExitListener(): void {
    const wanted = this.#registry.syncCount > 0
    if (wanted === this.#exitListenerInstalled) return
    this.#exitListenerInstalled = wanted
    if (wanted) this.#process.on('exit', this.#runSyncVariants)
    else this.#process.removeListener('exit', this.#runSyncVariants)
  }

  // 'exit' listeners may only do synchronous work: what is still queued is abandoned after them.
  readonly #runSyncVariants = (): void => {
    for (const entry of this.#registry.needingSync()) {
      entry.state = 'settled'
      try {
        entry.sync?.()
      } catch (error) {
        this.#writeStderr(`sync cleanup "${entry.name}" threw: ${inspect(error)}\n`)
      }
    }
  }

  readonly #defaultOnReport = (report: ShutdownReport): void => {
    if (reportHasProblems(report)) this.#writeStderr(formatReport(report))
  }

  readonly #printFatal = (error: unknown, origin: FatalOrigin): void => {
    this.#writeStderr(`${origin}: ${inspect(error)}\n`)
  }

  #writeStderr(text: string): void {
    const stderr = this.#stderr
    if (!stderr || stderr.destroyed || !stderr.writable) return
    try {
      stderr.write(text)
    } catch {
      // The last place to say something is gone; there is nowhere left to report this.
    }
  }
}
