// Backoff between attempts while a failure lasts: quick enough to notice a freed disk, slow enough not to
// spin on a dead one.
const RETRY_MIN_MS = 50
const RETRY_MAX_MS = 5000

/**
 * The one timer of a failing recorder: the next attempt after a failure, doubling from 50 ms to 5 s. It is
 * unref()ed: a failing recorder never keeps the process alive; the exit drain makes the last attempt.
 */
export class RetryBackoff {
  #timer: NodeJS.Timeout | null = null
  #delay = RETRY_MIN_MS

  get pending(): boolean {
    return this.#timer !== null
  }

  arm(retry: () => void): void {
    this.cancel()
    this.#timer = setTimeout(() => {
      this.#timer = null
      retry()
    }, this.#delay)
    this.#timer.unref()
    this.#delay = Math.min(this.#delay * 2, RETRY_MAX_MS)
  }

  cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }

  /** Writing works again: the next failure starts from the shortest delay. */
  reset(): void {
    this.cancel()
    this.#delay = RETRY_MIN_MS
  }
}
