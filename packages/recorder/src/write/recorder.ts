import path from 'node:path'

import { RecorderError, RecorderErrorCode, SessionLockedError } from '../errors.js'
import { registerExitDrain } from './exit-drain.js'
import { LockKeeper } from '../lock/lock-keeper.js'
import { SessionSidecar } from './meta-sidecar.js'
import type { RecorderOptions, ResolvedOptions } from '../options.js'
import type { FlushWatermark, RecordOptions, Recorder, RecorderStats } from './recorder-api.js'
import { nodeFs, type RecorderFs } from '../util/recorder-fs.js'
import { TITLE_RECORD_TYPE, transcriptFileName } from '../format/record-format.js'
import { RecordQueue } from './record-queue.js'
import { resolveOptions } from './resolve-options.js'
import { type SessionDetails, sessionError, withUnwrittenCount } from './session-errors.js'
import { Reporter } from './reporter.js'
import { inspectForResume, recoveredRecord } from './resume.js'
import { Sequencer } from './sequencer.js'
import { profileRules } from './writer-profile.js'
import { Transcript } from './transcript.js'
import { Custody } from './custody.js'
import { Admission } from './admission.js'
import { exitGoal, flushSyncGoal } from './goals.js'
import { Writer } from './writer.js'
import { runSync } from './io.js'
import { TurnShaper } from './turns/turn-shaper.js'
import type { Turn } from './turns/turn.js'
import { limited } from '../util/write-limiter.js'

/**
 * The recorder: a thin facade that wires the parts of the write core and owns the session's lifecycle
 * (ready, close, exit). Who owns what:
 * - {@link Sequencer}: `record()`'s validation, envelope, parent chain and serialization (the chain);
 * - {@link RecordQueue}: accepted records not yet written;
 * - {@link Transcript}: the path and every descriptor of the transcript (open, check, write, sync, close);
 * - {@link Writer}: the write cycle, its background loop and the synchronous drains, and the watermarks;
 * - {@link Admission}: `maxRecordBytes`, the memory bounds and their overflow policy;
 * - {@link LockKeeper}: the single-writer lock; {@link Reporter}: failures to onError/stderr.
 */
class SessionRecorder implements Recorder {
  readonly sessionId: string
  readonly filePath: string
  readonly #o: ResolvedOptions
  readonly #fs: RecorderFs
  readonly #queue: RecordQueue
  readonly #sequencer: Sequencer
  readonly #transcript: Transcript
  readonly #writer: Writer
  readonly #admission: Admission
  readonly #lock: LockKeeper
  readonly #custody: Custody
  readonly #reporter: Reporter
  readonly #meta: SessionSidecar | null
  readonly #unregisterExit: () => void
  readonly #turns: TurnShaper
  #closing: Promise<void> | null = null
  #closed = false
  // Records accepted when the exit drain last ran (-1: it has not).
  #exitDrainedAt = -1
  #readyWaiters: Array<{ resolve: () => void; reject: (error: RecorderError) => void }> = []

  constructor(options: ResolvedOptions) {
    this.#o = options
    this.#fs = options.fs ?? nodeFs
    this.sessionId = options.sessionId
    const dir = path.resolve(options.dir)
    this.filePath = path.join(dir, transcriptFileName(options.sessionId))
    this.#reporter = new Reporter(options.onError)
    this.#queue = new RecordQueue({
      maxQueueChars: options.maxQueueChars,
      maxHeldChars: options.maxHeldChars,
      maxRecordBytes: options.maxRecordBytes,
      onUnserializable: (uuid, type, cause) =>
        this.#reporter.report(
          sessionError(
            this.#details(),
            RecorderErrorCode.RECORD_UNSERIALIZABLE,
            `record ${uuid} ("${type}") was handed over but its data could not be serialized; it was written with a recordError field instead of its data`,
            cause,
          ),
        ),
    })
    const error = (code: RecorderErrorCode, what: string, cause: unknown): RecorderError =>
      sessionError(this.#details(), code, what, cause)

    // Resume first: a transcript that cannot be read, or is not ours, throws here, before any lock is taken.
    const rules = profileRules(options)
    const resumed = options.resume
      ? inspectForResume(this.filePath, this.sessionId, rules.metadataTypes, error)
      : null
    this.#sequencer = new Sequencer(
      this.#queue,
      this.sessionId,
      options.redact,
      resumed?.chainUuid ?? null,
      rules,
      () => this.#details(),
    )
    this.#meta = options.meta
      ? new SessionSidecar({
          dir,
          sessionId: this.sessionId,
          debounceMs: options.metaDebounceMs,
          onError: (cause) =>
            this.#reporter.report(
              error(RecorderErrorCode.META_FAILED, 'could not write the meta sidecar', cause),
            ),
          durableFs: options.fsync === 'never' ? null : this.#fs,
          resumed,
        })
      : null
    if (resumed?.torn != null) {
      // The torn bytes stay where they are (append-only); the first record says which bytes they were.
      const recovered = recoveredRecord(JSON.stringify(this.sessionId), resumed.chainUuid, resumed.torn)
      this.#sequencer.acceptOwn(recovered.serialized, recovered.uuid, recovered.timestamp)
    }

    this.#transcript = new Transcript(
      this.filePath,
      dir,
      this.sessionId,
      options.fileCheckIntervalMs,
      error,
      options.fsync !== 'never',
    )
    this.#lock = new LockKeeper(
      {
        filePath: this.filePath,
        staleMs: options.lockStaleMs,
        error,
        lockedError: (cause) =>
          new SessionLockedError(cause === undefined ? this.#details() : { ...this.#details(), cause }),
        onCompromised: (lost) => {
          this.#custody.lockLost()
          this.#reporter.report(lost)
        },
      },
      options.lock,
    )
    this.#custody = new Custody(this.#lock, this.filePath)
    this.#admission = new Admission({
      queue: this.#queue,
      writer: () => this.#writer,
      lock: this.#lock,
      maxQueueChars: options.maxQueueChars,
      maxHeldChars: options.maxHeldChars,
      overflow: options.overflow,
      maxRecordBytes: options.maxRecordBytes,
      details: () => this.#details(),
    })
    this.#writer = new Writer(
      {
        fs: this.#fs,
        queue: this.#queue,
        transcript: this.#transcript,
        lock: this.#lock,
        custody: this.#custody,
        reporter: this.#reporter,
        fsync: options.fsync,
        maxWriteChars: options.maxWriteBytes,
        recorded: () => this.#sequencer.recorded,
        error,
        withCount: (failure) => withUnwrittenCount(failure, this.#details()),
        onPersisted: () => this.#meta?.follow(this.#writer.marks),
        onOpened: () => {
          for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve()
        },
        onFailed: (failure) => {
          for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(failure)
        },
      },
      resumed?.lastUuid ?? null,
    )
    if (options.lock) this.#takeLockSync()
    this.#unregisterExit = registerExitDrain(() => this.#drainOnExit())
    this.#turns = new TurnShaper(options.profile, options.profileFields, this.sessionId)
    // An agent's tools may need a first line of their own (Codex: session_meta) in a new transcript.
    if (resumed?.exists !== true)
      for (const first of this.#turns.openingRecords())
        this.record(first.type, first.data, { timestamp: first.timestamp })
    this.#writer.schedule()
  }

  get lastUuid(): string | null {
    return this.#sequencer.lastUuid
  }

  get persisted(): FlushWatermark {
    return this.#writer.marks.persisted
  }

  get persistedUuid(): string | null {
    return this.#writer.marks.persisted.uuid
  }

  recordTurn(turn: Turn, options?: Pick<RecordOptions, 'parentUuid' | 'timestamp'>): string {
    const records = this.#turns.recordsOf(turn)
    let uuid = ''
    // Only the first record takes an explicit parent; the rest of the turn follows it.
    records.forEach((entry, i) => {
      uuid = this.record(entry.type, entry.data, i === 0 ? options : { timestamp: options?.timestamp })
    })
    return uuid
  }

  record(type: string, data?: object, options?: RecordOptions): string {
    const prepared = this.#sequencer.prepare(type, data, options)
    this.#admission.checkSize(prepared)
    const admitted = this.#admission.makeRoomFor(prepared)
    this.#sequencer.accept(prepared, admitted === 'over')
    if (type === TITLE_RECORD_TYPE) this.#meta?.noteTitle(data)
    this.#writer.schedule()
    return prepared.uuid
  }

  flush(): Promise<FlushWatermark> {
    return this.#writer.flush()
  }

  flushSync(): FlushWatermark {
    const ok = this.#writer.drainSync(flushSyncGoal(this.#sequencer.recorded), false)
    if (!ok || !this.#writer.marks.satisfied(this.#sequencer.recorded)) {
      const cause =
        this.#writer.fatal ??
        this.#writer.failure ??
        new RecorderError(
          RecorderErrorCode.WRITE_FAILED,
          `flushSync() could not write every record${this.#writer.refusal === null ? '' : `: ${this.#writer.refusal}`}`,
          this.#details(),
        )
      throw withUnwrittenCount(cause, this.#details())
    }
    return this.persisted
  }

  ready(): Promise<void> {
    if (this.#transcript.isOpen || this.#closed) return Promise.resolve()
    if (this.#writer.fatal !== null)
      return Promise.reject(withUnwrittenCount(this.#writer.fatal, this.#details()))
    return new Promise((resolve, reject) => {
      this.#readyWaiters.push({ resolve, reject })
      this.#writer.kick()
    })
  }

  close(): Promise<void> {
    this.#sequencer.stopAccepting()
    this.#writer.stopOpening()
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
    const marks = this.#writer.marks
    return {
      recorded: this.#sequencer.recorded,
      persisted: marks.persisted.count,
      pendingRecords: this.#queue.pendingRecords,
      pendingBytes: this.#queue.pendingChars,
      writes: this.#transcript.writes,
      bytesWritten: this.#transcript.bytesWritten,
      fsyncs: this.#writer.fsyncs,
      retries: this.#writer.retries + this.#transcript.retries,
      errors: this.#writer.errors,
      maxBatchRecords: marks.maxBatchRecords,
      overflowEvents: this.#admission.overflowEvents,
    }
  }

  // ---------------------------------------------------------------- lifecycle

  #takeLockSync(): void {
    // The lock directory lives next to the transcript, so the directory must exist first. Both are done
    // synchronously here, once, so that from the moment createRecorder returns the exit drain knows whether
    // the session is ours; on failure the write loop repeats them asynchronously and reports.
    try {
      // The same procedure the write loop runs (it remembers the levels it made, to fsync their parents).
      runSync(this.#transcript.ensureDir(), { fs: this.#fs, lock: noLockStep })
    } catch {
      return
    }
    this.#lock.start(true)
  }

  #drainOnExit(): void {
    const recorded = this.#sequencer.recorded
    // The drain runs from the 'exit' listener and again from process.reallyExit (see exit-drain.ts): the
    // second time only for records accepted since (by a later 'exit' listener), so a loss is reported once.
    if (this.#exitDrainedAt === recorded) return
    this.#exitDrainedAt = recorded
    this.#reporter.exiting = true
    const deadline = Date.now() + this.#o.exitDrainMs
    this.#writer.marks.confirmAgain()
    this.#writer.drainSync(exitGoal(deadline, recorded, this.#o.fsync === 'batch'), true)
    const unwritten = recorded - this.#writer.marks.written
    if (unwritten > 0) {
      const reason = this.#writer.fatal ?? this.#writer.failure
      const timedOut = Date.now() >= deadline
      this.#reporter.reportFinal(
        sessionError(
          this.#details(),
          RecorderErrorCode.EXIT_UNWRITTEN,
          `the process is exiting and ${unwritten} record(s) could not be written${timedOut && reason === null ? ` within exitDrainMs (${this.#o.exitDrainMs} ms)` : ''}; they are lost`,
          reason ?? undefined,
        ),
      )
    }
    if (this.#lock.isOurs()) this.#meta?.flushSync()
    this.#lock.exitSync()
  }

  async #close(): Promise<void> {
    try {
      // Everything accepted: written, found at the path by a final check, and synced as `fsync` asks.
      this.#writer.marks.confirmAgain()
      await this.#writer.flush()
    } catch (error) {
      // A failure that retrying can fix keeps everything (queue, lock, exit drain) for the next close();
      // a final one (the session is someone else's) has nothing left to wait for.
      if (this.#writer.fatal === null) throw error
      await this.#release()
      throw error
    }
    await this.#meta?.flush()
    await this.#release()
  }

  /** Stops the loop, waits for it, then closes every descriptor once and releases the lock. */
  async #release(): Promise<void> {
    this.#meta?.stop()
    this.#unregisterExit()
    this.#closed = true
    await this.#writer.stop()
    // The loop has stopped, so no later open will settle a pending ready(); ready() after close() resolves.
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve()
    for (const fd of this.#transcript.detach()) await limited(() => this.#fs.close(fd)).catch(ignore)
    await this.#lock.release()
  }

  #details(): SessionDetails {
    return {
      sessionId: this.sessionId,
      filePath: this.filePath,
      unwrittenRecords:
        this.#writer === undefined ? 0 : this.#writer.marks.unwritten(this.#sequencer.recorded),
    }
  }
}

function noLockStep(): void {
  // ensureDir never asks for the lock: making the directory comes before taking it.
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
