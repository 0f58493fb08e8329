import { armTimer, type Clock } from './clock.js'
import {
  CleanupStalledError,
  CleanupTimeoutError,
  ShutdownDeadlineError,
  type ShutdownError,
} from './errors.js'
import type { CleanupContext } from './options.js'
import type { ShutdownReason } from './reason.js'
import type { CleanupEntry, CleanupRegistry } from './registry.js'
import type { CleanupOutcome, CleanupStatus } from './report.js'

export interface PassResult {
  readonly reason: ShutdownReason
  readonly durationMs: number
  readonly cleanups: readonly CleanupOutcome[]
  readonly deadlineExceeded: boolean
}

export interface PassOptions {
  readonly registry: CleanupRegistry
  readonly clock: Clock
  readonly reason: ShutdownReason
  /** Wall-clock bound of the whole pass. */
  readonly timeoutMs: number
  readonly defaultCleanupTimeoutMs: number
  /** Outcomes of an earlier, finished pass this one continues (for cleanups registered after it). */
  readonly earlier?: readonly CleanupOutcome[]
}

/**
 * One run over the registry: cleanups one at a time (phase by phase, last-registered first), each under
 * its own timeout, all under the pass deadline. Cleanups registered while it runs are picked up.
 * `done` never rejects.
 */
export class CleanupPass {
  readonly done: Promise<PassResult>
  readonly #options: PassOptions
  readonly #outcomes: CleanupOutcome[]
  #startedAt = 0
  #deadlineExceeded = false
  // Set once the pass must stop starting cleanups (deadline passed or exit forced).
  #stopped: ShutdownError | undefined
  // Gives up on the cleanup in flight, so a deadline or a forced exit does not wait for it.
  #giveUpCurrent: ((error: ShutdownError) => void) | undefined
  // Name of the cleanup in flight, for the error it is given up with when it stalls.
  #currentName: string | undefined
  // Once every cleanup has settled, a late deadline or forced exit must not rewrite the result.
  #finished = false

  constructor(options: PassOptions) {
    this.#options = options
    this.#outcomes = [...(options.earlier ?? [])]
    this.done = this.#run()
  }

  /** `true` once the pass has stopped taking cleanups (all ran, or it was stopped). */
  get finished(): boolean {
    return this.#finished
  }

  /** Name of the cleanup running now, if any (to name who called `process.exit()` meanwhile). */
  get currentName(): string | undefined {
    return this.#currentName
  }

  /** What has been recorded so far, in run order. */
  get outcomes(): readonly CleanupOutcome[] {
    return this.#outcomes
  }

  /** Stops the pass now: the running cleanup is abandoned with `error`, the rest never start. */
  stop(error: ShutdownError): PassResult {
    if (this.#stopped === undefined && !this.#finished) {
      this.#stopped = error
      this.#giveUpCurrent?.(error)
    }
    return this.#result()
  }

  /**
   * The event loop emptied (`'beforeExit'`): the cleanup in flight can never settle. Give up on it alone
   * and go on with the next one, which may well complete.
   */
  stall(): void {
    if (this.#currentName !== undefined) this.#giveUpCurrent?.(new CleanupStalledError(this.#currentName))
  }

  /**
   * The deadline (`timeoutMs` after the pass began) has passed: stop, and say so in the result. Also used
   * by an exit that joins a pass started earlier with a longer bound.
   */
  expire(timeoutMs: number): PassResult {
    if (this.#stopped === undefined && !this.#finished) this.#deadlineExceeded = true
    return this.stop(new ShutdownDeadlineError(timeoutMs))
  }

  async #run(): Promise<PassResult> {
    const { clock, registry, timeoutMs } = this.#options
    this.#startedAt = clock.now()
    // Armed before the first cleanup is called: no user code can delay the bound.
    const disarm = armTimer(clock, timeoutMs, () => this.expire(timeoutMs))
    try {
      while (this.#stopped === undefined) {
        const entry = registry.takeNext()
        if (!entry) break
        await this.#runOne(entry)
      }
    } finally {
      disarm()
    }
    this.#finished = true
    return this.#result()
  }

  #runOne(entry: CleanupEntry): Promise<void> {
    const { clock, reason, timeoutMs, defaultCleanupTimeoutMs } = this.#options
    const ownTimeoutMs = entry.timeoutMs ?? defaultCleanupTimeoutMs
    const startedAt = clock.now()
    const remainingMs = Math.max(0, timeoutMs - (startedAt - this.#startedAt))
    // Created on first access of `context.signal`: most cleanups never look at it, and an AbortSignal is
    // the costliest part of starting a cleanup.
    let controller: AbortController | undefined
    // Why the pass gave up on this cleanup, once it has; a signal first read after that is born aborted.
    let abortedWith: unknown
    const budgetMs = Math.min(ownTimeoutMs, remainingMs)
    const context: CleanupContext = {
      get signal() {
        controller ??= new AbortController()
        // Asked for after being given up on: hand out an already-aborted signal, not a live one.
        if (abortedWith !== undefined && !controller.signal.aborted) controller.abort(abortedWith)
        return controller.signal
      },
      reason,
      timeoutMs: budgetMs,
    }

    return new Promise<void>((resolve) => {
      let finished = false
      const finish = (status: CleanupStatus, error?: unknown, hasError = false): void => {
        if (finished) return
        finished = true
        disarm()
        this.#giveUpCurrent = undefined
        this.#currentName = undefined
        entry.state = status === 'ok' || status === 'failed' ? 'settled' : 'abandoned'
        // Abort after recording, so a cleanup reacting synchronously to the abort cannot reorder outcomes.
        this.#outcomes.push({
          name: entry.name,
          phase: entry.phase,
          status,
          durationMs: clock.now() - startedAt,
          ...(hasError ? { error } : {}),
        })
        if (status === 'timed-out') {
          abortedWith = error
          controller?.abort(error)
        }
        resolve()
      }
      this.#giveUpCurrent = (error) => finish('timed-out', error, true)
      this.#currentName = entry.name
      // Armed before the cleanup is called (it is called a microtask later, below).
      const disarm = armTimer(clock, ownTimeoutMs, () =>
        finish('timed-out', new CleanupTimeoutError(entry.name, ownTimeoutMs), true),
      )
      // Promise.resolve().then(...) turns a synchronous throw into a rejection, so it cannot stop the pass.
      Promise.resolve()
        .then(() => entry.fn(context))
        .then(
          () => finish('ok'),
          (error: unknown) => finish('failed', error, true),
        )
    })
  }

  #result(): PassResult {
    const notStarted: CleanupOutcome[] = this.#options.registry
      .pendingInRunOrder()
      .map((entry) => ({ name: entry.name, phase: entry.phase, status: 'not-started', durationMs: 0 }))
    return {
      reason: this.#options.reason,
      durationMs: this.#options.clock.now() - this.#startedAt,
      cleanups: [...this.#outcomes, ...notStarted],
      deadlineExceeded: this.#deadlineExceeded,
    }
  }
}
