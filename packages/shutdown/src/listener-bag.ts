import type { ProcessPort } from './options.js'

type Listener = (...args: unknown[]) => void

/** Process listeners added by one owner, so they can all be removed together (and only they). */
export class ListenerBag {
  readonly #process: ProcessPort
  readonly #listeners: Array<readonly [string, Listener]> = []

  constructor(process: ProcessPort) {
    this.#process = process
  }

  add(event: string, listener: Listener): void {
    this.#process.on(event, listener)
    this.#listeners.push([event, listener])
  }

  get size(): number {
    return this.#listeners.length
  }

  removeAll(): void {
    for (const [event, listener] of this.#listeners.splice(0)) this.#process.removeListener(event, listener)
  }
}
