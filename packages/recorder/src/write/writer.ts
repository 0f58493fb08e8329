import { RecorderError, RecorderErrorCode } from '../errors.js'
import { type InFlight, landedOrWhyNot, STALLED_WRITE_MESSAGE } from './in-flight-write.js'
import type { LockKeeper } from '../lock/lock-keeper.js'
import type { FsyncMode } from '../options.js'
import type { FlushWatermark } from './recorder-api.js'
import type { RecorderFs } from '../util/recorder-fs.js'
import type { Chunk, RecordQueue } from './record-queue.js'
import { backgroundGoal, type Goal } from './goals.js'
import * as io from './io.js'
import type { Reporter } from './reporter.js'
import type { Custody } from './custody.js'
import type { FailureLatch } from './failure-latch.js'
import { checkPath } from './path-check.js'
import type { Transcript } from './transcript.js'
import { type WatermarkFollower, type WatermarkView, Watermarks } from './watermarks.js'

export interface WriterSettings {
  readonly fs: RecorderFs
  readonly queue: RecordQueue
  readonly transcript: Transcript
  readonly lock: LockKeeper
  /** Whether the file is still ours to write after the lock was lost (the one place that decides). */
  readonly custody: Custody
  readonly reporter: Reporter
  readonly fsync: FsyncMode
  /** `maxWriteBytes`: the most UTF-8 bytes one write carries. */
  readonly maxWriteBytes: number
  /** Records accepted so far (the target of flushSync, close and the exit drain). */
  readonly recorded: () => number
  readonly error: (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError
  /** The same error, restated with the count of records unwritten now. */
  readonly withCount: (error: RecorderError) => RecorderError
  /** Who follows the persisted watermark (the meta sidecar; null without one). */
  readonly follower: WatermarkFollower | null
  /** Where the chain stood when the transcript was resumed (null: a new transcript). */
  readonly resumedUuid: string | null
  /** The failure of the last attempt, the final one, the retry after a failure (read by the facade too). */
  readonly latch: FailureLatch
}

/** The writer's counters, read at once for `stats()`. */
export interface WriterCounts {
  readonly persisted: number
  readonly maxBatchRecords: number
  readonly fsyncs: number
}

/** The chunk being written and how many of its bytes are in the file. */
type Current = { readonly chunk: Chunk; written: number }

/**
 * The write loop. One cycle — lock, open, carry, check, write, sync, settle — written once as an
 * {@link io.Io} procedure and run by two drivers: the background loop ({@link io.runAsync}, started with
 * setImmediate after `record()`), and {@link drainSync} for `flushSync()`, the overflow policy and the exit
 * drain. The background loop and a synchronous drain hand over in exactly one place, {@link #takeOver}:
 * it accounts for the write the loop left in flight and moves the generation on, which makes the loop drop
 * its procedure at its next step.
 */
export class Writer {
  readonly #s: WriterSettings
  // Only the cycle moves them; the rest of the recorder reads them through `marks`.
  readonly #marks: Watermarks
  #current: Current | null = null

  // The background loop.
  #generation = 0
  #busy = false
  #scheduled = false
  #stopped = false
  #idle: { readonly promise: Promise<void>; readonly resolve: () => void } | null = null
  // A write in flight that a synchronous drain already waited for, in vain, for the whole bound.
  #stalledWrite: InFlight | null = null
  // The background loop opens the transcript even before the first record (cleared at close).
  #opening = true

  readonly #latch: FailureLatch
  // Why the last drainSync could not take over from the background loop (null: it could).
  #refusal: string | null = null
  #fsyncs = 0

  constructor(settings: WriterSettings) {
    this.#s = settings
    this.#marks = new Watermarks(settings.fsync, settings.resumedUuid, settings.follower)
    this.#latch = settings.latch
  }

  get marks(): WatermarkView {
    return this.#marks
  }

  /** Why the last drainSync could not take over from the background loop (null: it could). */
  get refusal(): string | null {
    return this.#refusal
  }

  get counts(): WriterCounts {
    return {
      persisted: this.#marks.persisted.count,
      maxBatchRecords: this.#marks.maxBatchRecords,
      fsyncs: this.#fsyncs,
    }
  }

  get #midRecord(): boolean {
    return (this.#current !== null && this.#current.written > 0) || this.#s.queue.midRecord
  }

  /** Something can be written now, or walked first (a record handed over). */
  get hasWork(): boolean {
    return this.#s.queue.hasReady || this.#current !== null || this.#s.transcript.hasCarry
  }

  *#cycle(goal: Goal): io.Io<void> {
    const t = this.#s.transcript
    for (;;) {
      if (!t.isOpen) {
        if (!goal.open && !this.hasWork && goal.confirm() <= this.#marks.verified) return
        // The directory first: the lock directory lives in it.
        yield* t.ensureDir()
        yield* io.requireLock()
        yield* t.open(this.#current !== null && this.#current.written > 0 && !t.hasCarry)
        this.#marks.opened()
        continue
      }
      if (t.hasCarry) {
        // The file put in place may have changed since it was opened: never carry onto an unseen change.
        if (!(yield* t.unchanged()) && !(yield* this.#check())) continue
        yield* t.copyCarry()
        continue
      }
      // A record begun is finished whatever the goal says (never half a line); one handed over is walked first.
      const writing =
        this.hasWork &&
        (goal.writeMore() || this.#midRecord) &&
        (this.#current !== null || this.#s.queue.prepareHead())
      // The lock before the check: a lock lost and taken again makes the check due (did anyone write?).
      if (writing) yield* io.requireLock()
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
        this.#marks.settle()
        continue
      }
      const target = Math.min(goal.confirm(), this.#marks.written)
      if (target > this.#marks.verified) {
        yield* this.#check()
        continue
      }
      if (goal.sync && this.#s.fsync !== 'never' && target > this.#marks.synced) {
        yield* this.#sync()
        continue
      }
      this.#marks.settle()
      return
    }
  }

  *#writeNext(): io.Io<void> {
    const current = (this.#current ??= this.#take())
    if (current === null) return
    yield* this.#s.transcript.append(
      current.chunk.buffer,
      current.written,
      (bytes) => (current.written += bytes),
    )
    this.#current = null
    const t = this.#s.transcript
    this.#s.queue.commit(current.chunk)
    this.#marks.committed(current.chunk)
    t.committed(current.chunk, this.#marks.written)
  }

  #take(): Current | null {
    const chunk = this.#s.queue.nextChunk(this.#s.maxWriteBytes)
    return chunk === null ? null : { chunk, written: 0 }
  }

  *#sync(): io.Io<void> {
    const { written, writtenUuid } = this.#marks
    yield* this.#s.transcript.sync()
    this.#fsyncs++
    this.#marks.syncedUpTo(written, writtenUuid)
  }

  *#checkBeforeWrite(): io.Io<boolean> {
    const t = this.#s.transcript
    return t.checkDue(Date.now()) || this.#s.custody.mustCheck || !(yield* t.unchanged())
  }

  /** Checks the path; true when it still names our file as we left it (see path-check.ts). */
  *#check(): io.Io<boolean> {
    return yield* checkPath(this.#s.transcript, {
      marks: this.#marks,
      custody: this.#s.custody,
      error: this.#s.error,
      report: (code, message) => this.#s.reporter.report(this.#s.error(code, message, undefined)),
      restartChunk: () => {
        if (this.#current !== null) this.#current.written = 0
      },
      final: (error) => this.#latch.final(error),
    })
  }

  /** Resolves once every record accepted so far is persisted and at the path. */
  flush(): Promise<FlushWatermark> {
    if (this.#latch.fatal !== null) return Promise.reject(this.#s.withCount(this.#latch.fatal))
    const target = this.#s.recorded()
    if (this.#marks.satisfied(target)) return Promise.resolve(this.#marks.persisted)
    const waiting = this.#marks.wait(target)
    this.kick()
    return waiting
  }

  /**
   * Resolves once the transcript is open (at once when it is, or when the loop has stopped for good: no
   * open will come); rejects with the failure of the attempt it waits for.
   */
  ready(): Promise<void> {
    if (this.#s.transcript.isOpen || this.#stopped) return Promise.resolve()
    if (this.#latch.fatal !== null) return Promise.reject(this.#s.withCount(this.#latch.fatal))
    const open = this.#marks.waitOpen()
    this.kick()
    return open
  }

  /**
   * close() and the exit drain end with a check of the path even when nothing was written since the last
   * one (see Watermarks.confirmAgain).
   */
  confirmAgain(): void {
    this.#marks.confirmAgain()
  }

  /** Asks for an attempt now: a flush or ready() does not wait out a failure's backoff. */
  kick(): void {
    this.#latch.cancelRetry()
    this.schedule()
  }

  schedule(): void {
    if (this.#busy || this.#scheduled || this.#stopped || this.#latch.holdsBack) return
    this.#scheduled = true
    // setImmediate, not a microtask: a synchronous burst of record() calls all lands in one write, and the
    // encoding of that write runs as its own event-loop task instead of extending the caller's.
    setImmediate(() => {
      this.#scheduled = false
      void this.#run()
    })
  }

  async #run(): Promise<void> {
    if (this.#busy || this.#stopped || this.#latch.fatal !== null) return
    this.#busy = true
    const generation = this.#generation
    const goal = backgroundGoal(() => this.#marks.waitedFor, this.#opening)
    try {
      await io.runAsync(this.#cycle(goal), {
        fs: this.#s.fs,
        lock: () => this.#lockAsync(),
        isCurrent: () => this.#generation === generation,
      })
      this.#latch.recovered()
    } catch (error) {
      // Taken over by a synchronous drain, or stopped: the state is no longer this run's to touch.
      if (error !== io.TAKEN_OVER) this.#fail(error, 'write loop failed')
    } finally {
      if (this.#generation === generation) this.#becameIdle()
    }
    if (this.#latch.failure === null && (this.hasWork || this.#marks.hasWaiters)) this.schedule()
  }

  /** close() began: the loop no longer opens the transcript just to have it open. */
  stopOpening(): void {
    this.#opening = false
  }

  async #lockAsync(): Promise<boolean> {
    const lock = this.#s.lock
    if (lock.isOurs()) return this.#s.custody.mustCheck
    await lock.settle()
    if (this.#stopped) throw io.TAKEN_OVER
    lock.checkTaken()
    return this.#s.custody.mustCheck
  }

  /**
   * Stops the background loop for good and waits for a run in progress to finish. No open comes after
   * it, so a `ready()` still waiting resolves (ready() after close() resolves).
   */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#opening = false
    this.#latch.cancelRetry()
    if (this.#busy) {
      // Promise.withResolvers() is Node 22+; the floor is 20.
      let resolve = (): void => {}
      this.#idle ??= { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() }
      await this.#idle.promise
    }
    this.#marks.releaseOpenWaiters()
  }

  /**
   * Runs the cycle with synchronous calls, now. Returns whether it ran to its goal; never throws (a failure
   * is latched and reported like the loop's). Outside the exit listener it refuses rather than write twice
   * when a write of the loop is still in the threadpool past the bounded wait.
   */
  drainSync(goal: Goal, exiting: boolean): boolean {
    this.#refusal = null
    if (this.#done(goal)) return true
    if (this.#latch.fatal !== null) return false
    if (!this.#s.lock.isOurs()) {
      this.#refusal = 'the session lock is not held'
      return false
    }
    if (!this.#takeOver(exiting)) return false
    try {
      // A record handed over at the head is walked a slice per cycle while the goal holds (the exit deadline).
      do {
        io.runSync(this.#cycle(goal), {
          fs: this.#s.fs,
          lock: () => {
            if (!this.#s.lock.isOurs())
              throw (
                this.#latch.failure ??
                this.#s.error(RecorderErrorCode.LOCK_COMPROMISED, 'lost the session lock', undefined)
              )
            return this.#s.custody.mustCheck
          },
        })
      } while (this.#s.queue.headPending && goal.writeMore())
      this.#latch.recovered()
      return true
    } catch (error) {
      this.#fail(error, 'synchronous write failed')
      return false
    } finally {
      if (!exiting && this.#latch.failure === null && (this.hasWork || this.#marks.hasWaiters))
        this.schedule()
    }
  }

  /** Nothing for this goal to do: no drain (and no take-over of the loop) is needed. */
  #done(goal: Goal): boolean {
    if (this.hasWork && (goal.writeMore() || this.#midRecord)) return false
    const target = Math.min(goal.confirm(), this.#marks.written)
    if (target > this.#marks.verified) return false
    return !goal.sync || this.#s.fsync === 'never' || target <= this.#marks.synced
  }

  /**
   * The one hand-over from the background loop to a synchronous drain. A write the loop handed to the OS
   * cannot be cancelled: wait (bounded) until the file size shows it landed, account for it, then move the
   * generation on so the loop drops its procedure at its next step.
   */
  #takeOver(exiting: boolean): boolean {
    const t = this.#s.transcript
    const inFlight = t.inFlight
    const fd = t.descriptor
    if (inFlight !== null && fd !== null) {
      // Waited for in vain once already: look again without waiting, so a producer whose every record()
      // overflows is not blocked for the whole bound on each call.
      const landed = landedOrWhyNot(this.#s.fs, fd, inFlight, inFlight !== this.#stalledWrite, exiting)
      if (typeof landed === 'string') {
        this.#refusal = landed
        return false
      }
      if (landed < inFlight.length && !exiting) {
        this.#stalledWrite = inFlight
        this.#refusal = STALLED_WRITE_MESSAGE
        return false
      }
      // At exit, what has not landed by now is written by the drain (the threadpool may still run it: then
      // those bytes appear twice and readers report the duplicate uuid — a loss would be worse).
      t.settleInFlight(landed)
    }
    this.#generation++
    this.#scheduled = false
    this.#becameIdle()
    return true
  }

  /** No background run is in progress any more (it ended, or was taken over): a stop() may go on. */
  #becameIdle(): void {
    this.#busy = false
    this.#idle?.resolve()
    this.#idle = null
  }

  /** A failure (what failed, unless it is a RecorderError already): latched, reported, waiters rejected. */
  #fail(cause: unknown, what: string): void {
    const error =
      cause instanceof RecorderError ? cause : this.#s.error(RecorderErrorCode.WRITE_FAILED, what, cause)
    this.#latch.failed(error, this.#stopped ? null : () => this.schedule())
    this.#marks.rejectAll(this.#s.withCount(error))
  }
}
