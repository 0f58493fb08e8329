import type { ProcessPort } from './options.js'

type Exit = (code?: number) => void

/**
 * Holds `process.exit` while a shutdown runs. A cleanup, a sync variant or another `'exit'` listener that
 * calls `process.exit()` mid-shutdown would otherwise end the process on the spot: the later cleanups,
 * the report, the stdout drain and every `'exit'` listener after it (the recorder's exit drain among
 * them) never run. While held, a call is handed to `onCall` and returns; the one real exit happens later,
 * through {@link exit}.
 *
 * Only the `exit` property is replaced, and only while held. When someone wrapped it after us, it is left
 * in place on release and our wrapper just passes calls through.
 */
export class ExitInterceptor {
  readonly #process: ProcessPort
  readonly #onCall: (code: unknown) => void
  // The `exit` we replaced, and whether it was the port's own property (a fake's method is inherited).
  #original: Exit | undefined
  #hadOwn = false
  #held = false
  // Our wrapper, to tell on release whether it is still the one installed.
  readonly #wrapper: Exit

  constructor(process: ProcessPort, onCall: (code: unknown) => void) {
    this.#process = process
    this.#onCall = onCall
    const wrapper = (code?: number): void => {
      if (this.#held) this.#onCall(code)
      else this.#callOriginal(code)
    }
    this.#wrapper = wrapper
  }

  get held(): boolean {
    return this.#held
  }

  hold(): void {
    this.#held = true
    if (this.#original !== undefined) return
    const port = this.#process
    this.#hadOwn = Object.hasOwn(port, 'exit')
    // eslint-disable-next-line @typescript-eslint/unbound-method -- always called as original.call(port)
    this.#original = port.exit
    port.exit = this.#wrapper
  }

  release(): void {
    this.#held = false
    const port = this.#process
    if (this.#original === undefined || port.exit !== this.#wrapper) return
    if (this.#hadOwn) port.exit = this.#original
    else delete (port as { exit?: Exit }).exit
    this.#original = undefined
  }

  /** The real exit, whether held or not. */
  exit(code: number): void {
    this.#callOriginal(code)
  }

  #callOriginal(code: number | undefined): void {
    // Called with the port as `this`, and with no argument when none was given, as the caller called it.
    const args = code === undefined ? [] : [code]
    if (this.#original !== undefined) Reflect.apply(this.#original, this.#process, args)
    else if (code === undefined) this.#process.exit()
    else this.#process.exit(code)
  }
}
