import type { FsyncMode } from '../../options.js'
import type { Chunk, RecordQueue } from '../queue/record-queue.js'
import type { Goal } from './goals.js'
import { type Io, requireLock } from './io.js'
import type { Reporter } from './reporter.js'
import type { Custody } from '../tamper/custody.js'
import type { FailureLatch } from './failure-latch.js'
import { checkPath } from '../tamper/path-check.js'
import type { ErrorFactory, Transcript } from '../file/transcript.js'
import { type WatermarkFollower, Watermarks } from './watermarks.js'
import { NEWLINE } from '../../format/record-format.js'

export interface CycleSettings {
  readonly queue: RecordQueue
  readonly transcript: Transcript
  /** Whether the file is still ours to write after the lock was lost (the one place that decides). */
  readonly custody: Custody
  readonly reporter: Reporter
  readonly fsync: FsyncMode
  /** `maxWriteBytes`: the most UTF-8 bytes one write carries. */
  readonly maxWriteBytes: number
  readonly error: ErrorFactory
  /** Who follows the persisted watermark (the meta sidecar; null without one). */
  readonly follower: WatermarkFollower | null
  /** Where the chain stood when the transcript was resumed (null: a new transcript). */
  readonly resumedUuid: string | null
  /** Where a path check that finds the file no longer ours latches its final failure. */
  readonly latch: FailureLatch
}

/** The chunk being written and how many of its bytes are in the file. */
type Current = { readonly chunk: Chunk; written: number }

/**
 * The write cycle — lock, open, carry, check, write, sync, settle — as one {@link Io} procedure: the
 * decisions over plain state, with no I/O of its own. Its two drivers (the background loop and the
 * synchronous drain, both in writer.ts) execute the operations it yields; whichever runs it, the same
 * state moves the same way. It owns what the cycle alone moves: the chunk being written and the watermarks
 * (the rest of the recorder reads them through the writer's `marks`).
 */
export class WriteCycle {
  readonly #s: CycleSettings
  readonly marks: Watermarks
  #current: Current | null = null
  #fsyncs = 0

  constructor(settings: CycleSettings) {
    this.#s = settings
    this.marks = new Watermarks(settings.fsync, settings.resumedUuid, settings.follower)
  }

  get fsyncs(): number {
    return this.#fsyncs
  }

  /** A record is written in part: stopping now would leave half a line. */
  get midRecord(): boolean {
    return (this.#current !== null && this.#current.written > 0) || this.#s.queue.midRecord
  }

  /** Something can be written now, or walked first (a record handed over). */
  get hasWork(): boolean {
    return this.#s.queue.hasReady || this.#current !== null || this.#s.transcript.hasCarry
  }

  /** Nothing for this goal to do: no drain (and no take-over of the loop) is needed. */
  done(goal: Goal): boolean {
    if (this.hasWork && (goal.writeMore() || this.midRecord)) return false
    const target = Math.min(goal.confirm(), this.marks.written)
    if (target > this.marks.verified) return false
    return !goal.sync || this.#s.fsync === 'never' || target <= this.marks.synced
  }

  *run(goal: Goal): Io<void> {
    const t = this.#s.transcript
    const marks = this.marks
    for (;;) {
      if (!t.isOpen) {
        if (!goal.open && !this.hasWork && goal.confirm() <= marks.verified) return
        // The directory first: the lock directory lives in it.
        yield* t.ensureDir()
        yield* requireLock()
        yield* t.open(this.#current !== null && this.#current.written > 0 && !t.hasCarry)
        marks.opened()
        continue
      }
      if (t.hasCarry) {
        // The file put in place may have changed since it was opened: never carry onto an unseen change. A
        // check due first (one that found a change before the file left the path, say) comes first too.
        if ((t.checkDue(Date.now()) || !(yield* t.unchanged())) && !(yield* this.#check())) continue
        yield* t.copyCarry()
        continue
      }
      // A record begun is finished whatever the goal says (never half a line); one handed over is walked first.
      const writing =
        this.hasWork &&
        (goal.writeMore() || this.midRecord) &&
        (this.#current !== null || this.#s.queue.prepareHead())
      // The lock before the check: a lock lost and taken again makes the check due (did anyone write?).
      if (writing) yield* requireLock()
      // The bytes first, then the read that checks the file, then the write: the less time between the
      // check and the write, the less room for someone's rewrite to begin unseen (see until-still.ts).
      if (writing) this.#current ??= this.#take()
      // Before a write, when due — or when the lock was lost since the last check, or the file is no longer as
      // long as we left it (someone appended: never glue our record to their line) — a path that no longer
      // names our file as we left it is dealt with first; after a check that found it so, the write follows.
      if (writing && (yield* this.#checkBeforeWrite()) && !(yield* this.#check())) continue
      if (writing) {
        yield* this.#writeNext()
        if (this.#s.fsync === 'batch') yield* this.#sync()
        marks.settle()
        continue
      }
      const target = Math.min(goal.confirm(), marks.written)
      if (target > marks.verified) {
        yield* this.#check()
        continue
      }
      if (goal.sync && this.#s.fsync !== 'never' && target > marks.synced) {
        yield* this.#sync()
        continue
      }
      marks.settle()
      return
    }
  }

  /**
   * A record being written in slices, some already written: the file changed between two of them, so what
   * they wrote is not a line this record can go on. It is written again whole, from its first character,
   * on a line of its own (the transcript ends the line it left first). True when there was one.
   */
  #restartRecord(): boolean {
    if (!this.#s.queue.midRecord) return false
    this.#current = null
    this.#s.queue.restartHead()
    return true
  }

  *#writeNext(): Io<void> {
    const current = (this.#current ??= this.#take())
    if (current === null) return
    yield* this.#s.transcript.append(
      current.chunk.buffer,
      current.written,
      (bytes) => (current.written += bytes),
    )
    this.#current = null
    this.#s.queue.commit(current.chunk)
    this.marks.committed(current.chunk)
    this.#s.transcript.committed(current.chunk, this.marks.written)
  }

  #take(): Current | null {
    const chunk = this.#s.queue.nextChunk(this.#s.maxWriteBytes)
    return chunk === null ? null : { chunk, written: 0 }
  }

  *#sync(): Io<void> {
    const { written, writtenUuid } = this.marks
    yield* this.#s.transcript.sync()
    this.#fsyncs++
    this.marks.syncedUpTo(written, writtenUuid)
  }

  *#checkBeforeWrite(): Io<boolean> {
    const t = this.#s.transcript
    return t.checkDue(Date.now()) || this.#s.custody.mustCheck || !(yield* t.unchanged())
  }

  /** Checks the path; true when it still names our file as we left it (see path-check.ts). */
  *#check(): Io<boolean> {
    const s = this.#s
    return yield* checkPath(s.transcript, {
      marks: this.marks,
      custody: s.custody,
      error: s.error,
      report: (code, message, loss) => s.reporter.report(s.error(code, message, undefined, loss)),
      restartChunk: () => {
        if (this.#restartRecord()) return
        if (this.#current !== null) this.#current.written = 0
      },
      restartRecord: () => {
        if (this.#restartRecord()) return
        // A chunk written in part (a write that failed after some of its bytes landed): the lines it
        // completed stay, and the one it was in the middle of is written again whole after their bytes.
        const current = this.#current
        if (current !== null && current.written > 0)
          current.written = current.chunk.buffer.lastIndexOf(NEWLINE, current.written - 1) + 1
      },
      final: (error) => s.latch.final(error),
    })
  }
}
