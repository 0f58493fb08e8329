import { type RecorderError, RecorderErrorCode, type SessionLockedError } from '../errors.js'
import {
  attemptLock,
  forgetLockDir,
  lockPathOf,
  lockRefreshedAt,
  refreshLockSync,
  releaseLockAtExitSync,
} from './session-lock.js'
import { errorCode } from '../util/transient-errors.js'

/**
 * A write may be issued only while the lock's mtime is younger than this share of `lockStaleMs`. The
 * heartbeat refreshes it every `lockStaleMs / 2`, so in a process whose event loop runs it never gets much
 * older than that; past three quarters the heartbeat is overdue (the event loop was blocked, the disk
 * stalled), and a contender — which needs the full `lockStaleMs` without a refresh — may be close. The
 * quarter left is the margin a write issued under this rule has to land in before anyone can take the lock.
 */
const FRESH_SHARE = 0.75
// How often a writer waiting for an overdue heartbeat looks again: the heartbeat's own stat + utimes.
const FRESH_POLL_MS = 10

/**
 * Lock states. `off`: `lock: false`. `pending`: not (yet) ours, an attempt may be in flight. `owned`: we
 * created the lock directory, proper-lockfile is still finishing. `held`: fully ours. `lost`: compromised
 * while held, being taken again. `locked`: another writer holds it (final).
 */
export type LockState = 'off' | 'pending' | 'owned' | 'held' | 'lost' | 'locked'

export interface LockKeeperSettings {
  readonly filePath: string
  readonly staleMs: number
  /** A recorder error with the session's details. */
  readonly error: (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError
  /** A `SessionLockedError` with the session's details. */
  readonly lockedError: (cause: unknown) => SessionLockedError
  /** The lock was lost while held (from a proper-lockfile timer): writing must pause. */
  readonly onCompromised: (error: RecorderError) => void
}

/**
 * The state of one recorder's single-writer lock: taking it (the first `mkdir` synchronously, inside
 * `createRecorder`), taking it again after a compromise, and releasing it. Whether the lock is ours is
 * known synchronously at every moment, which the synchronous drains rely on.
 */
export class LockKeeper {
  readonly #s: LockKeeperSettings
  // Asked before every write (isFresh): computed once.
  readonly #lockPath: string
  #state: LockState
  #attempt: Promise<void> | null = null
  #error: RecorderError | null = null
  #release: (() => Promise<void>) | null = null

  constructor(settings: LockKeeperSettings, enabled: boolean) {
    this.#s = settings
    this.#lockPath = lockPathOf(settings.filePath)
    this.#state = enabled ? 'pending' : 'off'
  }

  /** Writing is allowed: the lock is off, or we created its directory. */
  isOurs(): boolean {
    const state = this.#state
    return state === 'off' || state === 'owned' || state === 'held'
  }

  /**
   * The lock is ours and provably fresh at `now`: its mtime, as we last set it (see lockRefreshedAt), is
   * younger than {@link FRESH_SHARE} of `lockStaleMs`. Nobody can have taken it over, and nobody can before
   * a write issued now lands, unless that write takes more than the rest of `lockStaleMs`. Always true with
   * `lock: false`.
   */
  isFresh(now: number): boolean {
    if (this.#state === 'off') return true
    if (!this.isOurs()) return false
    const refreshedAt = lockRefreshedAt(this.#lockPath)
    return refreshedAt !== undefined && now - refreshedAt < this.#s.staleMs * FRESH_SHARE
  }

  /**
   * Waits until the lock is fresh again — its heartbeat (proper-lockfile's timer, overdue after the event
   * loop was blocked) found it still ours and refreshed it — or is no longer ours (the heartbeat found it
   * taken: a compromise). Bounded by `lockStaleMs`: a heartbeat that neither refreshes nor gives up by then
   * fails this attempt (ERR_RECORDER_LOCK_FAILED; the records stay queued and are retried).
   */
  async untilFresh(): Promise<void> {
    const deadline = Date.now() + this.#s.staleMs
    while (this.isOurs() && !this.isFresh(Date.now())) {
      if (Date.now() >= deadline) {
        throw this.#s.error(
          RecorderErrorCode.LOCK_FAILED,
          `the session lock has not been refreshed for ${this.#s.staleMs} ms: nothing is written until its heartbeat confirms it is still ours`,
          undefined,
        )
      }
      // Unref'd: this wait must not keep the process alive; if it ends, the exit drain decides synchronously.
      await new Promise((resolve) => setTimeout(resolve, FRESH_POLL_MS).unref())
    }
  }

  /**
   * For a synchronous write: whether the lock is provably fresh now. At exit (`exiting`: no later tick will
   * run the heartbeat) a lock that is not is refreshed synchronously if it is provably still ours and not yet
   * stale (see refreshLockSync); elsewhere the caller fails and the background loop waits for the heartbeat.
   */
  freshForSyncWrite(exiting: boolean): boolean {
    if (this.isFresh(Date.now())) return true
    return exiting && this.isOurs() && refreshLockSync(this.#s.filePath, this.#s.staleMs)
  }

  start(sync: boolean): void {
    this.#error = null
    const attempt = attemptLock(this.#s.filePath, {
      staleMs: this.#s.staleMs,
      sync,
      onCompromised: (error) => this.#compromised(error),
    })
    if (attempt.syncMkdirError === null) this.#state = 'owned'
    // Both branches settle state instead of rethrowing: this promise may settle before anyone awaits it.
    this.#attempt = attempt.acquired.then(
      (release) => {
        this.#attempt = null
        this.#release = release
        this.#state = 'held'
      },
      (error: unknown) => {
        this.#attempt = null
        // Made by us (and maybe written under) but lost before proper-lockfile had finished taking it — its
        // first look found another directory at the path: a compromise, not a lock never had.
        if (this.#state === 'owned') {
          this.#compromised(error instanceof Error ? error : new Error(String(error)))
          return
        }
        if (errorCode(error) === 'ELOCKED') {
          this.#state = 'locked'
          this.#error = this.#s.lockedError(error)
        } else {
          this.#state = 'pending'
          this.#error = this.#s.error(RecorderErrorCode.LOCK_FAILED, 'could not take the session lock', error)
        }
      },
    )
  }

  /** Waits for an attempt to take the lock to settle, starting one if none is in flight. Never rejects. */
  async settle(): Promise<void> {
    if (this.#attempt === null) this.start(false)
    await this.#attempt
  }

  /** Whether the recorder takes a lock at all (`lock: true`). */
  get enabled(): boolean {
    return this.#state !== 'off'
  }

  /**
   * After {@link settle}: throws why the lock is not ours. (Whether the file must be checked after the lock
   * was lost and taken again is decided by the write core's Custody, from the compromise it was told of.)
   */
  checkTaken(): void {
    const state = this.#state
    if (state === 'locked') throw this.#error ?? this.#s.lockedError(undefined)
    if (state === 'pending' || state === 'lost') {
      throw (
        this.#error ??
        this.#s.error(RecorderErrorCode.LOCK_FAILED, 'could not take the session lock', undefined)
      )
    }
  }

  #compromised(error: Error): void {
    // Called by proper-lockfile from a timer: never throw from here. Stop writing until the lock is ours
    // again; onCompromised tells the write core, which checks the file before it writes on.
    this.#state = 'lost'
    this.#release = null
    forgetLockDir(this.#s.filePath)
    this.#s.onCompromised(this.#s.error(RecorderErrorCode.LOCK_COMPROMISED, 'lost the session lock', error))
  }

  /** At exit: releases the lock if it is ours, synchronously, so the next writer gets the session at once. */
  exitSync(): void {
    if (this.#state === 'owned' || this.#state === 'held') {
      releaseLockAtExitSync(this.#s.filePath, this.#state === 'held')
      this.#state = 'pending'
      this.#release = null
    }
  }

  /** Releases the lock if it is ours; a registration still finishing is released once it has finished. */
  async release(): Promise<void> {
    if (this.#attempt !== null) await this.#attempt
    const release = this.#release
    this.#release = null
    if (release !== null) await release().catch(ignore)
  }
}

function ignore(): void {
  // Releasing a lock already gone: nothing left to do.
}
