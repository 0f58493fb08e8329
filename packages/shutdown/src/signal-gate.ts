import type { ShutdownSignal } from './exit-codes.js'

export type SignalVerdict = 'first' | 'duplicate' | 'repeat'

/**
 * Tells a genuine second signal from a double delivery of the first. Ctrl-C signals the whole foreground
 * process group, and `npm run`/`pnpm run` forward it again, so one press can arrive twice within
 * milliseconds (pnpm/pnpm#7374, npm/cli#5021).
 */
export class SignalGate {
  #windowMs: number
  // The first signal seen, and when; the window is anchored to it so a burst of copies stays one press.
  #first: { readonly signal: ShutdownSignal; readonly at: number } | undefined

  constructor(windowMs: number) {
    this.#windowMs = windowMs
  }

  set windowMs(value: number) {
    this.#windowMs = value
  }

  classify(signal: ShutdownSignal, now: number): SignalVerdict {
    if (this.#first === undefined) {
      this.#first = { signal, at: now }
      return 'first'
    }
    const duplicate = signal === this.#first.signal && now - this.#first.at < this.#windowMs
    return duplicate ? 'duplicate' : 'repeat'
  }
}
