import { RecorderError, RecorderErrorCode } from '../errors.js'
import { TITLE_RECORD_TYPE } from '../format/record-format.js'
import type { RecorderOptions, ResolvedOptions } from '../options.js'
import { limited } from '../util/write-limiter.js'
import { assembleParts, type Parts } from './assemble.js'
import { registerExitDrain } from './loop/exit-drain.js'
import { exitGoal, flushSyncGoal } from './loop/goals.js'
import type { FlushWatermark, RecordOptions, Recorder, RecorderStats } from './recorder-api.js'
import { resolveOptions } from './resolve-options.js'
import { sessionError, withUnwrittenCount } from './session-errors.js'
import type { Turn } from './accept/turns/turn.js'

/**
 * The recorder: a thin facade over the parts of the write core (built and joined by `assemble.ts`) that
 * owns the session's lifecycle (close, exit). Who owns what:
 * - `Sequencer`: `record()`'s validation, envelope, parent chain and serialization (the chain);
 * - `RecordQueue`: accepted records not yet written;
 * - `Transcript`: the path and every descriptor of the transcript (open, check, write, sync, close);
 * - `Writer`: the write cycle, its background loop and the synchronous drains, and the watermarks (with
 *   every `flush()` and `ready()` waiting on them);
 * - `Admission`: `maxRecordBytes`, the memory bounds and their overflow policy;
 * - `LockKeeper`: the single-writer lock; `Reporter`: failures to onError/stderr.
 */
class SessionRecorder implements Recorder {
  readonly sessionId: string
  readonly filePath: string
  readonly #o: ResolvedOptions
  readonly #p: Parts
  readonly #unregisterExit: () => void
  #closing: Promise<void> | null = null
  // Records accepted when the exit drain last ran (-1: it has not).
  #exitDrainedAt = -1

  constructor(options: ResolvedOptions) {
    this.#o = options
    this.#p = assembleParts(options)
    this.sessionId = this.#p.sessionId
    this.filePath = this.#p.filePath
    this.#unregisterExit = registerExitDrain(() => this.#drainOnExit())
    // An agent's tools may need a first line of their own (Codex: session_meta) in a new transcript.
    if (!this.#p.resumedExisting)
      for (const first of this.#p.turns.openingRecords())
        this.record(first.type, first.data, { timestamp: first.timestamp })
    this.#p.writer.schedule()
  }

  get lastUuid(): string | null {
    return this.#p.sequencer.lastUuid
  }

  get persisted(): FlushWatermark {
    return this.#p.writer.marks.persisted
  }

  get persistedUuid(): string | null {
    return this.#p.writer.marks.persisted.uuid
  }

  recordTurn(turn: Turn, options?: Pick<RecordOptions, 'parentUuid' | 'timestamp'>): string {
    const records = this.#p.turns.recordsOf(turn)
    let uuid = ''
    // Only the first record takes an explicit parent; the rest of the turn follows it.
    records.forEach((entry, i) => {
      uuid = this.record(entry.type, entry.data, i === 0 ? options : { timestamp: options?.timestamp })
    })
    return uuid
  }

  record(type: string, data?: object, options?: RecordOptions): string {
    const { sequencer, admission, writer } = this.#p
    const prepared = sequencer.prepare(type, data, options)
    admission.checkSize(prepared)
    const admitted = admission.makeRoomFor(prepared)
    sequencer.accept(prepared, admitted === 'over')
    if (type === TITLE_RECORD_TYPE) this.#p.meta?.noteTitle(data)
    writer.schedule()
    return prepared.uuid
  }

  flush(): Promise<FlushWatermark> {
    return this.#p.writer.flush()
  }

  flushSync(): FlushWatermark {
    const { writer, latch, sequencer, details } = this.#p
    const ok = writer.drainSync(flushSyncGoal(sequencer.recorded), false)
    if (!ok || !writer.marks.satisfied(sequencer.recorded)) {
      const cause =
        latch.fatal ??
        latch.failure ??
        new RecorderError(
          RecorderErrorCode.WRITE_FAILED,
          `flushSync() could not write every record${writer.refusal === null ? '' : `: ${writer.refusal}`}`,
          details(),
        )
      throw withUnwrittenCount(cause, details())
    }
    return this.persisted
  }

  ready(): Promise<void> {
    return this.#p.writer.ready()
  }

  close(): Promise<void> {
    this.#p.sequencer.stopAccepting()
    this.#p.writer.stopOpening()
    this.#closing ??= this.#close().catch((error: unknown) => {
      // A failed close can be retried: the records stay queued and the lock stays held.
      this.#closing = null
      throw error
    })
    return this.#closing
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  stats(): RecorderStats {
    const { sequencer } = this.#p
    // One snapshot per part.
    const queue = this.#p.queue.counts
    const writer = this.#p.writer.counts
    const transcript = this.#p.transcript.counts
    const failures = this.#p.latch.counts
    return {
      recorded: sequencer.recorded,
      persisted: writer.persisted,
      pendingRecords: queue.pendingRecords,
      pendingChars: queue.pendingChars,
      // The deprecated name of pendingChars (it always counted code units).
      pendingBytes: queue.pendingChars,
      heldChars: queue.heldChars,
      writes: transcript.writes,
      bytesWritten: transcript.bytesWritten,
      fsyncs: writer.fsyncs,
      retries: failures.retries + transcript.retries,
      errors: failures.errors,
      maxBatchRecords: writer.maxBatchRecords,
      overflowEvents: this.#p.admission.overflowEvents,
      file: this.#p.transcript.filePath,
    }
  }

  // ---------------------------------------------------------------- lifecycle

  #drainOnExit(): void {
    const { sequencer, writer, latch, reporter, lock } = this.#p
    const recorded = sequencer.recorded
    // The drain runs from the 'exit' listener and again from process.reallyExit (see exit-drain.ts): the
    // second time only for records accepted since (by a later 'exit' listener), so a loss is reported once.
    if (this.#exitDrainedAt === recorded) return
    this.#exitDrainedAt = recorded
    reporter.enterExit()
    const deadline = Date.now() + this.#o.exitDrainMs
    writer.confirmAgain()
    writer.drainSync(exitGoal(deadline, recorded, this.#o.fsync === 'batch'), true)
    const unwritten = recorded - writer.marks.written
    if (unwritten > 0) {
      const reason = latch.fatal ?? latch.failure
      const timedOut = Date.now() >= deadline
      reporter.reportFinal(
        sessionError(
          this.#p.details(),
          RecorderErrorCode.EXIT_UNWRITTEN,
          `the process is exiting and ${unwritten} record(s) could not be written${timedOut && reason === null ? ` within exitDrainMs (${this.#o.exitDrainMs} ms)` : ''}; they are lost`,
          reason ?? undefined,
          { lost: { records: unwritten, exact: true } },
        ),
      )
    }
    if (lock.isOurs()) this.#p.meta?.flushSync()
    lock.exitSync()
  }

  async #close(): Promise<void> {
    const { writer, latch, meta } = this.#p
    try {
      // Everything accepted: written, found at the path by a final check, and synced as `fsync` asks.
      writer.confirmAgain()
      await writer.flush()
    } catch (error) {
      // A failure that retrying can fix keeps everything (queue, lock, exit drain) for the next close();
      // a final one (the session is someone else's) has nothing left to wait for.
      if (latch.fatal === null) throw error
      await this.#release()
      throw error
    }
    await meta?.flush()
    await this.#release()
  }

  /**
   * Stops the loop, waits for it (a `ready()` still waiting then resolves), then closes every descriptor
   * once and releases the lock.
   */
  async #release(): Promise<void> {
    const { meta, writer, transcript, fs, lock } = this.#p
    meta?.stop()
    this.#unregisterExit()
    await writer.stop()
    for (const fd of transcript.detach()) await limited(() => fs.close(fd)).catch(ignore)
    await lock.release()
  }
}

function ignore(): void {
  // Closing or releasing something already gone or broken: nothing left to do.
}

/**
 * Creates the recorder of one session. Synchronous: validates the options (a bad one is a `TypeError`),
 * inspects a resumed transcript's tail, creates the directory and takes the lock's directory (on failure
 * both are retried asynchronously and reported), and starts opening the transcript in the background.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  return new SessionRecorder(resolveOptions(options))
}
