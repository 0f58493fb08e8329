import { inspect } from 'node:util'
import type { Clock } from './clock.js'
import { EXIT_CODE_FATAL, exitCodeForSignal, type ShutdownSignal } from './exit-codes.js'
import { assertKnownKeys, FOREIGN } from './known-keys.js'
import { ListenerBag } from './listener-bag.js'
import type { FatalHandlerOptions, ProcessPort, SignalHandlerOptions } from './options.js'
import type { ShutdownReason } from './reason.js'
import { DEFAULT_DUPLICATE_WINDOW_MS, SIGNAL_OPTIONS } from './shutdown-settings.js'
import { SignalGate } from './signal-gate.js'
import {
  assertDuration,
  assertOneOf,
  assertOptionalFunction,
  assertOptions,
  assertSignal,
  assertSignals,
} from './validate.js'

type FatalOrigin = 'uncaughtException' | 'unhandledRejection'

/** What the triggers ask of the shutdown they start. */
export interface ExitStarter {
  /** Starts the exit with `reason` owning `code`, or records `reason` as a later one if an exit is under way. */
  begin(reason: ShutdownReason, code: number): void
  /** An exit is under way. */
  readonly underway: boolean
  /** A reason that arrived after the exit began, for the report. */
  recordLater(reason: ShutdownReason): void
  /** A genuine second signal: stop waiting for cleanups and exit now. */
  force(signal: ShutdownSignal): void
  /** A note on stderr (never throws). */
  writeStderr(text: string): void
}

/**
 * What starts a shutdown from outside the program's own code: signals (and `triggerShutdown`, which stands
 * in for one) and fatal errors. It owns their process listeners and the rules for a second signal; the
 * exit itself is the Shutdown's.
 */
export class ExitTriggers {
  readonly #process: ProcessPort
  readonly #clock: Clock
  readonly #exit: ExitStarter
  readonly #signalGate = new SignalGate(DEFAULT_DUPLICATE_WINDOW_MS)
  readonly #signalListeners: ListenerBag
  readonly #fatalListeners: ListenerBag
  #secondSignal: 'force' | 'ignore' = 'force'

  constructor(process: ProcessPort, clock: Clock, exit: ExitStarter) {
    this.#process = process
    this.#clock = clock
    this.#exit = exit
    this.#signalListeners = new ListenerBag(process)
    this.#fatalListeners = new ListenerBag(process)
  }

  /** See `Shutdown.installSignalHandlers`. */
  installSignalHandlers(options: SignalHandlerOptions): () => void {
    assertOptions('options', options)
    assertKnownKeys('installSignalHandlers(options)', options, SIGNAL_OPTIONS, FOREIGN.signals)
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

  /** See `Shutdown.triggerShutdown`. */
  trigger(signal: unknown): void {
    this.#onSignal(assertSignal('signal', signal))
  }

  /** See `Shutdown.installFatalHandlers`. */
  installFatalHandlers(options: FatalHandlerOptions): () => void {
    assertOptions('options', options)
    assertKnownKeys('installFatalHandlers(options)', options, ['onFatal'])
    const onFatal = assertOptionalFunction('onFatal', options.onFatal) ?? this.#printFatal
    this.#fatalListeners.removeAll()
    const handle = (error: unknown, origin: FatalOrigin): void => {
      try {
        onFatal(error, origin)
      } catch (hookError) {
        this.#exit.writeStderr(`onFatal threw: ${inspect(hookError)}\n`)
      }
      this.#exit.begin({ type: 'fatal', origin, error }, EXIT_CODE_FATAL)
    }
    this.#fatalListeners.add('uncaughtException', (error: unknown) => handle(error, 'uncaughtException'))
    this.#fatalListeners.add('unhandledRejection', (reason: unknown) => handle(reason, 'unhandledRejection'))
    return () => this.#fatalListeners.removeAll()
  }

  /** Before the one real exit: signals go back to Node's defaults, errors are no longer trapped. */
  removeAll(): void {
    this.#signalListeners.removeAll()
    this.#fatalListeners.removeAll()
  }

  #defaultSignals(): ShutdownSignal[] {
    const signals: ShutdownSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
    if (this.#process.platform === 'win32') signals.push('SIGBREAK')
    return signals
  }

  #onSignal(signal: ShutdownSignal): void {
    const verdict = this.#signalGate.classify(signal, this.#clock.now())
    if (verdict === 'duplicate') return
    if (!this.#exit.underway) {
      this.#exit.begin({ type: 'signal', signal }, exitCodeForSignal(signal))
      return
    }
    this.#exit.recordLater({ type: 'signal', signal })
    if (verdict === 'repeat' && this.#secondSignal === 'force') this.#exit.force(signal)
  }

  readonly #printFatal = (error: unknown, origin: FatalOrigin): void => {
    this.#exit.writeStderr(`${origin}: ${inspect(error)}\n`)
  }
}
