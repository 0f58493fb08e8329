import { RecorderError, RecorderErrorCode } from '../../errors.js'
import { type InFlight, landedOrWhyNot, STALLED_WRITE_MESSAGE } from './in-flight-write.js'
import type { LockKeeper } from '../../lock/lock-keeper.js'
import type { FlushWatermark } from '../recorder-api.js'
import type { RecorderFs } from '../../util/recorder-fs.js'
import { backgroundGoal, type Goal } from './goals.js'
import * as io from './io.js'
import type { FailureLatch } from './failure-latch.js'
import type { WatermarkView } from './watermarks.js'
import { type CycleSettings, WriteCycle } from './write-cycle.js'

export interface WriterSettings extends CycleSettings {
  readonly fs: RecorderFs
  readonly lock: LockKeeper
  /** Records accepted so far (the target of flushSync, close and the exit drain). */
  readonly recorded: () => number
  /** The same error, restated with the count of records unwritten now. */
  readonly withCount: (error: RecorderError) => RecorderError
  /** The failure of the last attempt, the final one, the retry after a failure (read by the facade too). */
  readonly latch: FailureLatch
}

/** The writer's counters, read at once for `stats()`. */
export interface WriterCounts {
  readonly persisted: number
  readonly maxBatchRecords: number
  readonly fsyncs: number
}

/** Settles a run's promise for the bookkeeping of {@link Writer.stop}; its outcome is handled where it ran. */
function ignore(): void {}

/**
 * The write loop: the two drivers of the one cycle ({@link WriteCycle}, write-cycle.ts) — the background
 * loop ({@link io.runAsync}, started with setImmediate after `record()`), and {@link drainSync} for
 * `flushSync()`, the overflow policy and the exit drain — and the waiters of `flush()` and `ready()`. The background loop and a synchronous drain hand over in exactly one place, {@link #takeOver}:
 * it accounts for the write the loop left in flight and moves the generation on, which makes the loop drop
 * its procedure at its next step.
 */
export class Writer {
  readonly #s: WriterSettings
  // The decisions and the state they move (the chunk being written, the watermarks); the drivers run it.
  readonly #cycle: WriteCycle

  // The background loop.
  #generation = 0
  #busy = false
  #scheduled = false
  // A packAhead() task is scheduled.
  #packing = false
  #stopped = false
  #idle: { readonly promise: Promise<void>; readonly resolve: () => void } | null = null
  // Every run of the loop not yet settled — the current one and any a synchronous drain took over, whose
  // last call may still be in the threadpool (an open that creates the file, a mkdir): stop() waits for
  // them all, so nothing of the writer's reaches the file system after close() resolves.
  readonly #runs = new Set<Promise<void>>()
  // A write in flight that a synchronous drain already waited for, in vain, for the whole bound.
  #stalledWrite: InFlight | null = null
  // The background loop opens the transcript even before the first record (cleared at close).
  #opening = true

  readonly #latch: FailureLatch
  // Why the last drainSync could not take over from the background loop (null: it could).
  #refusal: string | null = null

  constructor(settings: WriterSettings) {
    this.#s = settings
    this.#cycle = new WriteCycle(settings)
    this.#latch = settings.latch
  }

  get marks(): WatermarkView {
    return this.#cycle.marks
  }

  /** Why the last drainSync could not take over from the background loop (null: it could). */
  get refusal(): string | null {
    return this.#refusal
  }

  get counts(): WriterCounts {
    return {
      persisted: this.#cycle.marks.persisted.count,
      maxBatchRecords: this.#cycle.marks.maxBatchRecords,
      fsyncs: this.#cycle.fsyncs,
    }
  }

  /** Resolves once every record accepted so far is persisted and at the path. */
  flush(): Promise<FlushWatermark> {
    if (this.#latch.fatal !== null) return Promise.reject(this.#s.withCount(this.#latch.fatal))
    const target = this.#s.recorded()
    if (this.#cycle.marks.satisfied(target)) return Promise.resolve(this.#cycle.marks.persisted)
    const waiting = this.#cycle.marks.wait(target)
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
    const open = this.#cycle.marks.waitOpen()
    this.kick()
    return open
  }

  /**
   * close() and the exit drain end with a check of the path even when nothing was written since the last
   * one (see Watermarks.confirmAgain).
   */
  confirmAgain(): void {
    this.#cycle.marks.confirmAgain()
  }

  /** Asks for an attempt now: a flush or ready() does not wait out a failure's backoff. */
  kick(): void {
    this.#latch.cancelRetry()
    this.schedule()
  }

  schedule(): void {
    if (this.#busy) {
      this.#packLater()
      return
    }
    if (this.#scheduled || this.#stopped || this.#latch.holdsBack) return
    this.#scheduled = true
    // setImmediate, not a microtask: a synchronous burst of record() calls all lands in one write, and the
    // encoding of that write runs as its own event-loop task instead of extending the caller's.
    setImmediate(() => {
      this.#scheduled = false
      void this.#run()
    })
  }

  /**
   * The loop is busy (a write cycle in flight): the records just queued cannot go out before it ends and the
   * next cycle's read before its write returns — two loop turns at least, many behind a big record — so they
   * are encoded in a task of their own, after the caller's turn, instead of staying alive as strings in V8's
   * young generation until their write, where every scavenge copies them (see RecordQueue.packAhead). For
   * chat that copying doubled the GC time per record once each write waited for its check read (17d7cb1;
   * docs/benchmarks.md, "Chat throughput and the read before each write").
   */
  #packLater(): void {
    if (this.#packing || this.#stopped) return
    this.#packing = true
    setImmediate(() => {
      this.#packing = false
      if (!this.#stopped) this.#s.queue.packAhead(this.#s.maxWriteBytes)
    })
  }

  async #run(): Promise<void> {
    if (this.#busy || this.#stopped || this.#latch.fatal !== null) return
    this.#busy = true
    const generation = this.#generation
    const goal = backgroundGoal(() => this.#cycle.marks.waitedFor, this.#opening)
    const attempt = this.#cycle.marks.attemptBegins()
    let unanswered = false
    const run = io.runAsync(this.#cycle.run(goal), {
      fs: this.#s.fs,
      lock: () => this.#lockAsync(),
      isCurrent: () => this.#generation === generation,
    })
    const settled = run.then(ignore, ignore)
    this.#runs.add(settled)
    void settled.then(() => this.#runs.delete(settled))
    try {
      await run
      this.#latch.recovered()
    } catch (error) {
      // Taken over by a synchronous drain, or stopped: the state is no longer this run's to touch.
      if (error !== io.TAKEN_OVER) unanswered = this.#fail(error, 'write loop failed', attempt)
    } finally {
      if (this.#generation === generation) this.#becameIdle()
    }
    if (this.#latch.failure === null && (this.#cycle.hasWork || this.#cycle.marks.hasWaiters)) this.schedule()
    // A flush() or ready() called while the failed attempt ran is not answered by it: it gets its own, now.
    else if (unanswered) this.kick()
  }

  /** close() began: the loop no longer opens the transcript just to have it open. */
  stopOpening(): void {
    this.#opening = false
  }

  /**
   * Before every write call (and open): the lock must be ours and provably fresh. A holder whose event loop
   * was blocked past its heartbeat writes nothing until that heartbeat has run — it either finds the lock
   * still ours and refreshes it, or finds it taken over (a compromise: then the lock is taken again and the
   * file checked, or the session is someone else's). Asking only whether the file grew is not enough: the
   * other writer's append can land between that read and our write.
   */
  async #lockAsync(): Promise<io.LockOutcome> {
    const lock = this.#s.lock
    let waited = false
    for (;;) {
      if (!lock.isOurs()) {
        await lock.settle()
        if (this.#stopped) throw io.TAKEN_OVER
        lock.checkTaken()
      }
      if (lock.isFresh(Date.now())) return this.#s.custody.mustCheck ? 'recheck' : waited ? 'reread' : 'ok'
      waited = true
      await lock.untilFresh()
      if (this.#stopped) throw io.TAKEN_OVER
    }
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
    // Runs a synchronous drain took over end at their pending call (see io.runAsync): wait for that call.
    while (this.#runs.size > 0) await Promise.all(this.#runs)
    this.#cycle.marks.releaseOpenWaiters()
  }

  /**
   * Runs the cycle with synchronous calls, now. Returns whether it ran to its goal; never throws (a failure
   * is latched and reported like the loop's). Outside the exit listener it refuses rather than write twice
   * when a write of the loop is still in the threadpool past the bounded wait.
   */
  drainSync(goal: Goal, exiting: boolean): boolean {
    this.#refusal = null
    if (this.#cycle.done(goal)) return true
    if (this.#latch.fatal !== null) return false
    if (!this.#s.lock.isOurs()) {
      this.#refusal = 'the session lock is not held'
      return false
    }
    if (!this.#takeOver(exiting)) return false
    try {
      // A record handed over at the head is walked a slice per cycle while the goal holds (the exit deadline).
      do {
        io.runSync(this.#cycle.run(goal), {
          fs: this.#s.fs,
          lock: () => {
            if (!this.#s.lock.isOurs())
              throw (
                this.#latch.failure ??
                this.#s.error(RecorderErrorCode.LOCK_COMPROMISED, 'lost the session lock', undefined)
              )
            if (this.#s.custody.mustCheck) return 'recheck'
            if (this.#s.lock.isFresh(Date.now())) return 'ok'
            // A synchronous drain cannot wait for the heartbeat: at exit the lock is refreshed here if it is
            // provably still ours (then the file is looked at again), else nothing is written.
            if (this.#s.lock.freshForSyncWrite(exiting)) return 'reread'
            throw this.#s.error(
              RecorderErrorCode.LOCK_FAILED,
              'the session lock is overdue for its refresh (the event loop was blocked): nothing is written synchronously until its heartbeat confirms it is still ours',
              undefined,
            )
          },
        })
      } while (this.#s.queue.headPending && goal.writeMore())
      this.#latch.recovered()
      return true
    } catch (error) {
      this.#fail(error, 'synchronous write failed')
      return false
    } finally {
      if (!exiting && this.#latch.failure === null && (this.#cycle.hasWork || this.#cycle.marks.hasWaiters))
        this.schedule()
    }
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
      // those bytes appear twice and readers report the duplicate uuid — a loss would be worse). Whatever
      // the threadpool still reads must stay as it is: its buffer is not reused for a later chunk.
      t.settleInFlight(landed)
      this.#s.queue.keepLentBuffer()
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
  #fail(cause: unknown, what: string, attempt?: number): boolean {
    const error =
      cause instanceof RecorderError ? cause : this.#s.error(RecorderErrorCode.WRITE_FAILED, what, cause)
    this.#latch.failed(error, this.#stopped ? null : () => this.schedule())
    // A final failure answers every call; another, only the calls made before the failed attempt began.
    return this.#cycle.marks.rejectAll(
      this.#s.withCount(error),
      this.#latch.fatal === null ? attempt : undefined,
    )
  }
}
