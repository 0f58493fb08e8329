import { type RecorderError, RecorderErrorCode, SessionLockedError } from '../../errors.js'
import type { Reporter } from './reporter.js'
import { RetryBackoff } from './retry-backoff.js'

/**
 * The write loop's failure latch: the failure of the last attempt (cleared when one succeeds), the one that
 * ends the recorder for good (the session is someone else's), the retry that follows a failure, and their
 * counts for `stats()`. The writer asks it; only it changes them.
 */
export class FailureLatch {
  readonly #reporter: Reporter
  readonly #backoff = new RetryBackoff()
  #failure: RecorderError | null = null
  #fatal: RecorderError | null = null
  #errors = 0
  #retries = 0

  constructor(reporter: Reporter) {
    this.#reporter = reporter
  }

  /** The failure of the last attempt; null once one succeeds. */
  get failure(): RecorderError | null {
    return this.#failure
  }

  /** The failure that ends the recorder for good: nothing is written any more. */
  get fatal(): RecorderError | null {
    return this.#fatal
  }

  /** Failures reported, and attempts retried after one (for `stats()`). */
  get counts(): { readonly errors: number; readonly retries: number } {
    return { errors: this.#errors, retries: this.#retries }
  }

  /** No attempt may start now: a retry is armed and not due yet, or the failure is final. */
  get holdsBack(): boolean {
    return this.#backoff.pending || this.#fatal !== null
  }

  /** An attempt is wanted now (a flush, ready(), or the loop stopping): the armed retry is dropped. */
  cancelRetry(): void {
    this.#backoff.cancel()
  }

  /** Another writer took the session (the path check decided it): final, whatever happens next. */
  final(error: RecorderError): void {
    this.#fatal = error
  }

  /**
   * An attempt failed: latched and reported (a warning only for the first of an episode). A lost session
   * (locked by another process, or taken while ours) is final; any other failure is retried after the
   * backoff with `retry` (null: the loop has stopped, nothing is retried).
   */
  failed(error: RecorderError, retry: (() => void) | null): void {
    this.#errors++
    const first = this.#failure === null
    this.#failure = error
    this.#reporter.report(error, first)
    if (
      error instanceof SessionLockedError ||
      (error.code === RecorderErrorCode.LOCK_COMPROMISED && this.#fatal === error)
    ) {
      this.#fatal = error
      return
    }
    if (retry === null) return
    this.#retries++
    this.#backoff.arm(retry)
  }

  /** An attempt succeeded: the episode is over, the next failure starts from the shortest backoff. */
  recovered(): void {
    this.#backoff.reset()
    this.#failure = null
    this.#reporter.recovered()
  }
}
