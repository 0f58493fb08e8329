import {
  QueueFullError,
  RecorderErrorCode,
  type RecorderErrorDetails,
  RecordTooLargeError,
} from '../../errors.js'
import type { LockKeeper } from '../../lock/lock-keeper.js'
import type { OverflowPolicy } from '../../options.js'
import type { RecordQueue } from '../queue/record-queue.js'
import { bytesOverLimit, leastHandedOverBytes } from '../serialize/serialize-record.js'
import { roomGoal } from '../loop/goals.js'
import type { Prepared } from './sequencer.js'
import type { FailureLatch } from '../loop/failure-latch.js'
import type { Writer } from '../loop/writer.js'

export interface AdmissionSettings {
  readonly queue: RecordQueue
  readonly writer: Writer
  /** Whether writing has failed (then no drain is tried). */
  readonly latch: FailureLatch
  readonly lock: LockKeeper
  readonly maxQueueChars: number
  /** `maxHeldChars`: the bound on the strings held by reference. */
  readonly maxHeldChars: number
  readonly overflow: OverflowPolicy
  readonly maxRecordBytes: number | undefined
  readonly details: () => RecorderErrorDetails
}

/**
 * Whether a prepared record may be queued: `maxRecordBytes`, then the memory bound and its overflow policy.
 * Owns the count of `record()` calls that found the queue past the bound.
 */
export class Admission {
  readonly #s: AdmissionSettings
  #overflowEvents = 0

  constructor(settings: AdmissionSettings) {
    this.#s = settings
  }

  /** `record()` calls that found the queue past a bound (`stats().overflowEvents`). */
  get overflowEvents(): number {
    return this.#overflowEvents
  }

  /**
   * Throws a `RecordTooLargeError` for a record over `maxRecordBytes` (UTF-8 bytes, measured only when
   * set). A record holding long strings (escaped later) is bounded without escaping and measured only when
   * the bounds straddle the limit, in O(maxRecordBytes): see bytesOverLimit. A record handed over is
   * measured once walked (see hand-over.ts); here only its shortest possible line (envelope and an error
   * code) must fit. A record whose held strings alone exceed `maxHeldChars` could never be queued: refused.
   */
  checkSize(prepared: Prepared): void {
    if (prepared.heldChars > this.#s.maxHeldChars) {
      throw new QueueFullError(
        RecorderErrorCode.QUEUE_FULL,
        `Record "${prepared.type}" refused: it holds ${prepared.heldChars} code units of long strings, more than maxHeldChars (${this.#s.maxHeldChars}) allows in all; nothing was queued`,
        this.#s.details(),
      )
    }
    const max = this.#s.maxRecordBytes
    if (max === undefined) return
    if (prepared.serialized.handedOver !== null) {
      const least = leastHandedOverBytes(prepared.serialized)
      if (least > max) throw new RecordTooLargeError(prepared.type, least, max)
      return
    }
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: most records need no scan at all (not one holding
    // strings, whose `chars` counts them unescaped).
    if (prepared.chars * 3 <= max && prepared.heldChars === 0) return
    const bytes = bytesOverLimit(prepared.serialized, max)
    if (bytes !== null) throw new RecordTooLargeError(prepared.type, bytes, max)
  }

  /**
   * The memory bound. A record that would take the queue past `maxQueueChars` is admitted as the one
   * record allowed past it when there is none queued yet (a record bigger than the bound, written in
   * slices while the records behind it are bounded on their own: see RecordQueue.boundedChars). Strings
   * held by reference count apart, under `maxHeldChars`. Otherwise,
   * with `overflow: 'throw'`, it is refused; with `'drain-sync'`, room is made by writing synchronously down
   * to half the bound, and if even that cannot be done (a failure is latched, the lock is not ours, the
   * loop's write is stuck in the threadpool) the record is refused with a `QueueFullError`. Either way
   * nothing accepted is ever dropped and the queue never holds more than the bound plus one record.
   */
  makeRoomFor(prepared: Prepared): 'within' | 'over' {
    const { queue, lock, writer, latch } = this.#s
    const bound = this.#s.maxQueueChars
    const own = prepared.chars - prepared.heldChars
    const admitted = queue.admits(own, prepared.heldChars, bound)
    if (admitted !== null) return admitted
    this.#overflowEvents++
    let why = 'overflow is set to throw'
    if (this.#s.overflow === 'drain-sync') {
      if (latch.failure === null && latch.fatal === null && lock.isOurs()) {
        writer.drainSync(roomGoal(queue, own, prepared.heldChars, Math.floor(bound / 2)), false)
      }
      const room = queue.admits(own, prepared.heldChars, bound)
      if (room !== null) return room
      why =
        (latch.fatal ?? latch.failure)?.message ??
        (lock.isOurs() ? writer.refusal : 'the session lock is not held yet') ??
        'it could not be written'
    }
    throw new QueueFullError(
      RecorderErrorCode.QUEUE_FULL,
      `Record "${prepared.type}" refused: ${queue.boundedChars} queued characters plus ${own} would exceed maxQueueChars (${bound}), or ${queue.heldChars} code units of held strings plus ${prepared.heldChars} would exceed maxHeldChars (${this.#s.maxHeldChars}), and the queue could not be written now (${why}); nothing already accepted is lost`,
      this.#s.details(),
    )
  }
}
