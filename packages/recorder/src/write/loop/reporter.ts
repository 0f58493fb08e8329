import type { RecorderError } from '../../errors.js'

/**
 * Delivers a recorder's I/O failures: to `onError` when given (never synchronously, never letting
 * its exception or its rejected promise escape), otherwise as one process warning per failure episode.
 * Inside the exit listener no later tick runs, so reports are written to stderr synchronously there.
 */
export class Reporter {
  readonly #onError: ((error: RecorderError) => unknown) | undefined
  // A warning was emitted for the current failure episode (reset when writing recovers).
  #warned = false
  // Inside the exit listener: no later tick runs, so reports are delivered at once (see report()).
  #exiting = false

  constructor(onError: ((error: RecorderError) => unknown) | undefined) {
    this.#onError = onError
  }

  /** The process is exiting: from now on every report is delivered synchronously. */
  enterExit(): void {
    this.#exiting = true
  }

  recovered(): void {
    this.#warned = false
  }

  /**
   * Reports are delivered on a microtask: the write core calls this from inside its cycle (and from
   * record()'s overflow drain), where user code must never run. At exit no microtask runs any more, so
   * they are delivered at once there.
   */
  report(error: RecorderError, firstOfEpisode = true): void {
    if (this.#exiting) this.#deliver(error, firstOfEpisode)
    else queueMicrotask(() => this.#deliver(error, firstOfEpisode))
  }

  #deliver(error: RecorderError, firstOfEpisode: boolean): void {
    const onError = this.#onError
    if (onError === undefined) {
      // Never silent: without a handler, the first failure of each episode becomes a process warning.
      if (firstOfEpisode && !this.#warned) {
        this.#warned = true
        if (this.#exiting) writeStderr(`${error.name} [${error.code}]: ${error.message}\n`)
        else process.emitWarning(error)
      }
      return
    }
    deliver(onError, error)
  }

  /**
   * A loss the process is about to make final (records still unwritten at exit): always on stderr, whether
   * or not onError exists or an earlier warning covered the episode; and to onError too.
   */
  reportFinal(error: RecorderError): void {
    writeStderr(`${error.name} [${error.code}]: ${error.message}\n`)
    if (this.#onError !== undefined) deliver(this.#onError, error)
  }
}

function deliver(onError: (error: RecorderError) => unknown, error: RecorderError): void {
  try {
    const result = onError(error)
    // An async handler: its rejection must not become an unhandled rejection that takes the host down.
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (result as PromiseLike<unknown>).then === 'function'
    ) {
      ;(result as PromiseLike<unknown>).then(undefined, ignore)
    }
  } catch {
    // The handler's own failure must not break the write loop; the error itself was delivered.
  }
}

function writeStderr(text: string): void {
  try {
    process.stderr.write(text)
  } catch {
    // stderr itself may be gone (EPIPE) at exit; there is nowhere left to report to.
  }
}

function ignore(): void {
  // See deliver(): the handler's failure is its own.
}
