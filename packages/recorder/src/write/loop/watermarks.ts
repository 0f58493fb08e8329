import type { RecorderError } from '../../errors.js'
import type { FsyncMode } from '../../options.js'
import type { FlushWatermark } from '../recorder-api.js'
import type { Chunk } from '../queue/record-queue.js'

interface Waiter {
  readonly target: number
  /** The attempts begun before this call: none of them can answer it (see {@link Watermarks.attemptBegins}). */
  readonly after: number
  readonly resolve: (watermark: FlushWatermark) => void
  readonly reject: (error: RecorderError) => void
}

/** A `ready()` call waiting for the transcript to be open. */
interface OpenWaiter {
  readonly after: number
  readonly resolve: () => void
  readonly reject: (error: RecorderError) => void
}

/** What the rest of the recorder may read of the watermarks (only the write cycle moves them). */
export interface WatermarkView {
  /** The watermark `flush()` reports: with `fsync: 'batch'` only synced records count. */
  readonly persisted: FlushWatermark
  /** Records handed to the OS, counted from this recorder's start. */
  readonly written: number
  readonly firstWrittenAt: string | null
  readonly lastWrittenAt: string | null
  /** Most records that went out in one write. */
  readonly maxBatchRecords: number
  unwritten(recorded: number): number
  satisfied(target: number): boolean
}

/** Who follows the persisted watermark (the meta sidecar): told after every step of the cycle. */
export interface WatermarkFollower {
  follow(marks: WatermarkView): void
}

/**
 * How far the session is known to have got, in records counted from this recorder's start:
 * `written` (handed to the OS), `verified` (and found at the path by a check made after the write), `synced`
 * (and covered by an fdatasync). `flush()` waiters resolve once all three that their durability asks for
 * reach their target: a flush never resolves for records sitting in a file that is no longer at the path.
 *
 * The one owner of "waiting for the write cycle": `flush()` waiters wait for a count, `ready()` waiters for
 * the transcript to be open (the point where the count starts); a failure rejects both alike.
 */
export class Watermarks implements WatermarkView {
  readonly #fsync: FsyncMode
  readonly #follower: WatermarkFollower | null
  #written = 0
  #writtenUuid: string | null
  #verified = 0
  #synced = 0
  #syncedUuid: string | null
  #firstWrittenAt: string | null = null
  #lastWrittenAt: string | null = null
  #maxBatchRecords = 0
  #waiters: Waiter[] = []
  #openWaiters: OpenWaiter[] = []
  // Attempts of the write cycle begun so far. A failure rejects only the calls made before the attempt that
  // failed began: one made while it ran (a close() after the user moved a foreign file away, say) asked
  // about the file as it is now, which that attempt may have read before the change.
  #attempts = 0

  constructor(fsync: FsyncMode, resumedUuid: string | null, follower: WatermarkFollower | null = null) {
    this.#fsync = fsync
    this.#follower = follower
    this.#writtenUuid = resumedUuid
    this.#syncedUuid = resumedUuid
  }

  get written(): number {
    return this.#written
  }

  get writtenUuid(): string | null {
    return this.#writtenUuid
  }

  get verified(): number {
    return this.#verified
  }

  get synced(): number {
    return this.#synced
  }

  get firstWrittenAt(): string | null {
    return this.#firstWrittenAt
  }

  get lastWrittenAt(): string | null {
    return this.#lastWrittenAt
  }

  get maxBatchRecords(): number {
    return this.#maxBatchRecords
  }

  /** The watermark `flush()` reports: with `fsync: 'batch'` only synced records count. */
  get persisted(): FlushWatermark {
    return this.#fsync === 'batch'
      ? { uuid: this.#syncedUuid, count: this.#synced }
      : { uuid: this.#writtenUuid, count: this.#written }
  }

  /** Records accepted (`recorded` of them) that are not persisted yet. */
  unwritten(recorded: number): number {
    return recorded - (this.#fsync === 'never' ? this.#written : this.#synced)
  }

  /** Whether everything up to `target` is written, at the path, and synced if the durability asks for it. */
  satisfied(target: number): boolean {
    return this.#verified >= target && (this.#fsync === 'never' || this.#synced >= target)
  }

  /** The largest target a waiter has (0 without waiters). */
  get waitedFor(): number {
    let target = 0
    for (const waiter of this.#waiters) if (waiter.target > target) target = waiter.target
    return target
  }

  get hasWaiters(): boolean {
    return this.#waiters.length > 0
  }

  wait(target: number): Promise<FlushWatermark> {
    const after = this.#attempts
    return new Promise((resolve, reject) => this.#waiters.push({ target, after, resolve, reject }))
  }

  /** Resolves at the next {@link opened} (a `ready()` call); rejected by a failure first. */
  waitOpen(): Promise<void> {
    const after = this.#attempts
    return new Promise((resolve, reject) => this.#openWaiters.push({ after, resolve, reject }))
  }

  /** An attempt of the write cycle begins; returns its number, for {@link rejectAll}. */
  attemptBegins(): number {
    return ++this.#attempts
  }

  /** The loop has stopped for good: no open will come, so a pending `ready()` resolves (it did not fail). */
  releaseOpenWaiters(): void {
    for (const waiter of this.#openWaiters.splice(0)) waiter.resolve()
  }

  /** A chunk was written in full. */
  committed(chunk: Chunk): void {
    if (chunk.completes === 0) return
    this.#written += chunk.completes
    this.#writtenUuid = chunk.lastUuid
    this.#firstWrittenAt ??= chunk.firstTimestamp
    this.#lastWrittenAt = chunk.lastTimestamp
    if (chunk.completes > this.#maxBatchRecords) this.#maxBatchRecords = chunk.completes
  }

  /**
   * The path must be confirmed again before the records written count as at the path (close() and the exit
   * drain end with a check even when nothing was written since the last one: a copy put back meanwhile may
   * lack acknowledged records).
   */
  confirmAgain(): void {
    if (this.#written > 0 && this.#verified >= this.#written) this.#verified = this.#written - 1
  }

  /** A check found the path naming the file: every record written so far is there. */
  verifiedAll(): void {
    this.#verified = this.#written
  }

  /** An fdatasync that started with `written` records written completed. */
  syncedUpTo(written: number, writtenUuid: string | null): void {
    this.#synced = written
    this.#syncedUuid = writtenUuid
  }

  /**
   * The file the records were in was replaced; the unverified ones are being carried into the new file,
   * which has never been synced: they need a sync there before they count as synced again.
   */
  replaced(): void {
    if (this.#synced > this.#verified) this.#synced = this.#verified
  }

  /** The transcript was opened: every `ready()` waiting resolves. */
  opened(): void {
    for (const waiter of this.#openWaiters.splice(0)) waiter.resolve()
  }

  /**
   * Someone cut or rewrote the file: of the records written, only the first `kept` are known to be left
   * there (the others were lost, and reported so): the ones after them count as neither verified nor synced.
   */
  cutTo(kept: number): void {
    if (this.#verified > kept) this.#verified = kept
    if (this.#synced > kept) this.#synced = kept
  }

  /** Tells the follower where the persisted watermark is, and resolves every waiter whose target is met. */
  settle(): void {
    this.#follower?.follow(this)
    if (this.#waiters.length === 0) return
    const watermark = this.persisted
    const waiting: Waiter[] = []
    for (const waiter of this.#waiters) {
      if (this.satisfied(waiter.target)) waiter.resolve(watermark)
      else waiting.push(waiter)
    }
    this.#waiters = waiting
  }

  /**
   * A failure: every `flush()` and `ready()` waiting is rejected with it — with `attempt` (the number of the
   * attempt that failed), only those made before it began; the others wait for the next attempt (true:
   * some do, so it is wanted now).
   */
  rejectAll(error: RecorderError, attempt = Infinity): boolean {
    const earlier = (waiter: { readonly after: number }): boolean => waiter.after < attempt
    const waiters = this.#waiters
    const openWaiters = this.#openWaiters
    this.#waiters = waiters.filter((waiter) => !earlier(waiter))
    this.#openWaiters = openWaiters.filter((waiter) => !earlier(waiter))
    for (const waiter of waiters) if (earlier(waiter)) waiter.reject(error)
    for (const waiter of openWaiters) if (earlier(waiter)) waiter.reject(error)
    return this.#waiters.length > 0 || this.#openWaiters.length > 0
  }
}
