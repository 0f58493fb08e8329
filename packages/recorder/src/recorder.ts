import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import path from 'node:path'

import {
  InvalidRecordError,
  QueueFullError,
  RecorderClosedError,
  RecorderError,
  RecorderErrorCode,
  SessionLockedError,
} from './errors.js'
import { registerExitDrain } from './exit-drain.js'
import { IN_FLIGHT_SETTLE_MS, type InFlight, landedSync } from './in-flight-write.js'
import { isoTimestamp } from './iso-timestamp.js'
import { LockKeeper } from './lock-keeper.js'
import { type RecorderOptions, type ResolvedOptions } from './options.js'
import { type RecordOptions, type Recorder, type RecorderStats, type FlushWatermark } from './recorder-api.js'
import { nodeFs, type RecorderFs } from './recorder-fs.js'
import { type Chunk, RecordQueue } from './record-queue.js'
import { TITLE_RECORD_TYPE, transcriptFileName } from './record-format.js'
import { createMetaWriter, FRESH_META_BASE, loadMetaBase } from './meta-sidecar.js'
import { type MetaWriter } from './meta-writer.js'
import { resolveOptions } from './resolve-options.js'
import { serializeRecord } from './serialize-record.js'
import { type SessionDetails, sessionError, withUnwrittenCount } from './session-errors.js'
import { sleepSync } from './sleep-sync.js'
import { inspectTailSync } from './tail/inspect-tail.js'
import { repairTornTail } from './tail/repair-torn-tail.js'
import { repairTornTailSync } from './tail/repair-torn-tail-sync.js'
import { type PendingRepair, recoveredRecord } from './torn-tail-recovery.js'
import { type Carry, carriedLineStart, carryBuffer, carryFrom, carryRemaining } from './transcript-carry.js'
import { errorCode, isTransient, TRANSIENT_FIRST_DELAY_MS, TRANSIENT_RETRIES } from './transient-errors.js'
import { limited } from './write-limiter.js'

// O_RDWR (not O_WRONLY) so the last byte can be read back at open; O_NOFOLLOW refuses a planted symlink.
const OPEN_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW
const FILE_MODE = 0o600
const DIR_MODE = 0o700
const NEWLINE = 0x0a
// Backoff between attempts while a failure lasts: quick enough to notice a freed disk, slow enough not to
// spin on a dead one. Retry timers are unref()ed: a failing recorder never keeps the process alive; the exit
// drain makes the last attempt.
const RETRY_MIN_MS = 50
const RETRY_MAX_MS = 5000

interface Waiter {
  readonly target: number
  readonly resolve: (watermark: FlushWatermark) => void
  readonly reject: (error: RecorderError) => void
}

/** The chunk being written: its bytes (a newline may be prepended) and how many are on disk. */
interface Current {
  readonly chunk: Chunk
  readonly buffer: Buffer
  written: number
}

// Thrown inside the async loop when a synchronous drain took over its state meanwhile: the loop stops.
// One shared instance, compared by identity; it never reaches a caller.
const TAKEN_OVER = new Error('taken over by a synchronous drain')
// Thrown inside the async loop when close() finished meanwhile (it had nothing to wait for): the loop stops
// and adopts nothing. Same kind of sentinel.
const CLOSED = new Error('closed while the loop was running')

class SessionRecorder implements Recorder {
  readonly sessionId: string
  readonly filePath: string
  readonly #o: ResolvedOptions
  readonly #fs: RecorderFs
  readonly #dir: string
  readonly #sessionIdJson: string
  readonly #queue = new RecordQueue()

  #lastUuid: string | null = null
  #recorded = 0
  #accepting = true
  #closing: Promise<void> | null = null
  // close() finished: nothing is opened or locked again.
  #closed = false
  // Set by close(): the loop verifies the path once more before it goes idle.
  #finalCheck = false

  // The open transcript.
  #fd: number | null = null
  #ident: { readonly dev: number; readonly ino: number } | null = null
  // Size of the transcript as our own writes left it: the exit drain compares it with fstat to learn how
  // much of a write still in the threadpool has landed.
  #fileSize = 0
  // The file did not end with a newline when opened (a torn line): the next write starts with one.
  #needsNewline = false
  // Remembered only after a mkdir succeeded; an ENOENT at open forgets it.
  #dirReady = false
  #lastFileCheck = 0
  // After a write error the path is checked before the next write, whatever the interval.
  #suspectFile = false

  readonly #lock: LockKeeper
  // A line boundary at or before the transcript's size when the path was last found to name it: what lies
  // beyond may have to be carried into a recreated transcript.
  #verifiedOffset = 0
  // End of the last complete line we wrote (a record split across writes may be half written after it).
  #lineStart = 0
  #carry: Carry | null = null
  #repair: PendingRepair | null = null
  // The background repair is under way: it ends by truncating the transcript, so no synchronous drain may
  // repair and append meanwhile (the truncate would cut off what it wrote).
  #repairing = false

  // The write loop.
  #busy = false
  #scheduled = false
  #current: Current | null = null
  #inFlight: InFlight | null = null
  // A write in flight that a synchronous drain already waited for, in vain, for the whole bound.
  #stalledWrite: InFlight | null = null
  // Bumped by a synchronous drain; the async loop compares it after every await.
  #epoch = 0
  #failure: RecorderError | null = null
  #fatal: RecorderError | null = null
  #retryTimer: NodeJS.Timeout | null = null
  #retryDelay = RETRY_MIN_MS
  #warned = false
  // Inside the exit listener: no later tick will run, so reports must be delivered synchronously.
  #exiting = false
  // Inside record() (the drain-sync overflow policy): reports wait for a microtask, after the call.
  #deferReports = false

  // Watermarks: written = handed to the OS; synced = covered by a completed fdatasync.
  #written = 0
  #writtenUuid: string | null = null
  // Timestamps of the first and the latest record written, for the meta sidecar.
  #firstWrittenAt: string | null = null
  #lastWrittenAt: string | null = null
  #synced = 0
  #syncedUuid: string | null = null
  #waiters: Waiter[] = []
  #readyWaiters: Array<{ resolve: () => void; reject: (error: RecorderError) => void }> = []

  #writes = 0
  #bytesWritten = 0
  #fsyncs = 0
  #retries = 0
  #errors = 0
  #maxBatchRecords = 0
  #overflowEvents = 0

  readonly #unregisterExit: () => void
  readonly #meta: MetaWriter | null
  // Persisted count last handed to the meta writer.
  #metaCount = 0
  // A resumed session's sidecar being read; close() waits for it so the last sidecar write is not lost.
  #metaBaseLoading: Promise<void> | null = null

  constructor(options: ResolvedOptions) {
    this.#o = options
    this.#fs = options.fs ?? nodeFs
    this.sessionId = options.sessionId
    this.#dir = path.resolve(options.dir)
    this.filePath = path.join(this.#dir, transcriptFileName(options.sessionId))
    this.#sessionIdJson = JSON.stringify(options.sessionId)
    this.#lock = new LockKeeper(
      {
        filePath: this.filePath,
        staleMs: options.lockStaleMs,
        error: (code, what, cause) => this.#error(code, what, cause),
        lockedError: (cause) =>
          new SessionLockedError(cause === undefined ? this.#details() : { ...this.#details(), cause }),
        onCompromised: (error) => this.#fail(error),
      },
      options.lock,
    )
    this.#meta = options.meta ? this.#createMetaWriter() : null
    // Before the lock: a resume that cannot read the transcript throws here and must not leave a lock behind.
    if (options.resume) this.#resumeFromTail()
    else this.#meta?.setBase(FRESH_META_BASE)
    if (options.lock) this.#setUpLockSync()
    this.#unregisterExit = registerExitDrain(() => this.#drainOnExit())
    this.#schedule()
  }

  get lastUuid(): string | null {
    return this.#lastUuid
  }

  get persisted(): FlushWatermark {
    return { uuid: this.#persistedUuid(), count: this.#persistedCount() }
  }

  get persistedUuid(): string | null {
    return this.#persistedUuid()
  }

  record(type: string, data?: object, options?: RecordOptions): string {
    if (!this.#accepting) {
      throw new RecorderClosedError(
        `Cannot record "${String(type)}": the recorder of session "${this.sessionId}" is closed`,
      )
    }
    if (typeof type !== 'string' || type.length === 0) {
      throw new InvalidRecordError(
        `Expected record \`type\` to be a non-empty string, got \`${typeof type === 'string' ? '""' : String(type)}\` (${typeof type})`,
      )
    }
    const parentUuid = this.#parentFor(options)
    const uuid = randomUUID()
    const timestamp = isoTimestamp()
    const serialized = serializeRecord(
      { uuid, parentUuid, sessionIdJson: this.#sessionIdJson, timestamp, type },
      data,
      this.#o.redact,
    )
    const chars = serialized.head.length + serialized.body.length + 1
    const overBound = this.#queue.pendingChars + chars > this.#o.maxQueueBytes && !this.#queue.isEmpty
    if (overBound && this.#o.overflow === 'throw') {
      this.#overflowEvents++
      throw new QueueFullError(
        RecorderErrorCode.QUEUE_FULL,
        `Record "${type}" refused: ${this.#queue.pendingChars} queued characters plus ${chars} would exceed maxQueueBytes (${this.#o.maxQueueBytes})`,
        this.#details(),
      )
    }
    this.#queue.push(serialized, uuid, timestamp)
    this.#lastUuid = uuid
    this.#recorded++
    if (type === TITLE_RECORD_TYPE && this.#meta !== null) {
      const title = (data as { title?: unknown } | undefined)?.title
      if (typeof title === 'string') this.#meta.setTitle(title)
    }
    if (overBound) this.#onOverflow()
    this.#schedule()
    return uuid
  }

  flush(): Promise<FlushWatermark> {
    return this.#flush(false)
  }

  #flush(runLoop: boolean): Promise<FlushWatermark> {
    if (this.#fatal !== null) return Promise.reject(this.#withCount(this.#fatal))
    const target = this.#recorded
    if (!runLoop && this.#satisfied(target)) return Promise.resolve(this.persisted)
    return new Promise<FlushWatermark>((resolve, reject) => {
      this.#waiters.push({ target, resolve, reject })
      // A flush does not wait out a failure's backoff: it asks for an attempt now and reports its outcome.
      if (this.#retryTimer !== null) this.#retryNow()
      else this.#schedule()
    })
  }

  flushSync(): FlushWatermark {
    const ok = this.#drainSync(this.#o.fsync !== 'never')
    const pending = this.#queue.pendingRecords
    if (!ok || pending > 0) {
      throw this.#withCount(
        this.#fatal ??
          this.#failure ??
          new RecorderError(
            RecorderErrorCode.WRITE_FAILED,
            this.#repairing
              ? 'flushSync() could not write every record: the torn tail of the resumed transcript is being quarantined in the background'
              : this.#inFlight === null
                ? 'flushSync() could not write every record'
                : `flushSync() could not write every record: a write handed to the threadpool did not land within ${IN_FLIGHT_SETTLE_MS} ms, and writing its bytes again would duplicate them`,
            this.#details(),
          ),
      )
    }
    return this.persisted
  }

  ready(): Promise<void> {
    if (this.#fd !== null || this.#closed) return Promise.resolve()
    if (this.#fatal !== null) return Promise.reject(this.#withCount(this.#fatal))
    return new Promise((resolve, reject) => {
      this.#readyWaiters.push({ resolve, reject })
      if (this.#retryTimer !== null) this.#retryNow()
      else this.#schedule()
    })
  }

  close(): Promise<void> {
    this.#accepting = false
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
    return {
      recorded: this.#recorded,
      persisted: this.#persistedCount(),
      pendingRecords: this.#queue.pendingRecords,
      pendingBytes: this.#queue.pendingChars,
      writes: this.#writes,
      bytesWritten: this.#bytesWritten,
      fsyncs: this.#fsyncs,
      retries: this.#retries,
      errors: this.#errors,
      maxBatchRecords: this.#maxBatchRecords,
      overflowEvents: this.#overflowEvents,
    }
  }

  // ---------------------------------------------------------------- record() helpers

  #parentFor(options: RecordOptions | undefined): string | null {
    if (options === undefined) return this.#lastUuid
    if (options === null || typeof options !== 'object') {
      throw new InvalidRecordError(
        `Expected record \`options\` to be an object, got \`${String(options)}\` (${typeof options})`,
      )
    }
    const parent = options.parentUuid
    if (parent === undefined) return this.#lastUuid
    if (parent !== null && (typeof parent !== 'string' || parent.length === 0)) {
      throw new InvalidRecordError(
        `Expected \`parentUuid\` to be a non-empty string or null, got \`${String(parent)}\` (${typeof parent})`,
      )
    }
    return parent
  }

  #onOverflow(): void {
    this.#overflowEvents++
    // The default policy loses nothing: one synchronous drain brings the queue back under the bound. It is
    // skipped while the recorder cannot write anyway (a failure is latched or the lock is not ours), so a
    // dead disk does not cost a failing sync call per record; the records then stay queued past the bound.
    if (this.#failure === null && this.#fatal === null && this.#lockIsOurs()) {
      // Inside record(): what the drain reports reaches onError after the call, never re-entering it.
      this.#deferReports = true
      let drained: boolean
      try {
        drained = this.#drainSync(false)
      } finally {
        this.#deferReports = false
      }
      if (drained) return
    }
    const error = new RecorderError(
      RecorderErrorCode.QUEUE_FULL,
      `The queue of session "${this.sessionId}" is past maxQueueBytes (${this.#o.maxQueueBytes}) and cannot be written now; records stay queued`,
      { ...this.#details(), cause: this.#failure ?? this.#fatal ?? undefined },
    )
    queueMicrotask(() => this.#report(error))
  }

  // ---------------------------------------------------------------- resume

  #resumeFromTail(): void {
    let tail: ReturnType<typeof inspectTailSync>
    try {
      // Bounded read from the end of the file: its cost depends on the last record's size, not the file's.
      tail = inspectTailSync(this.filePath)
    } catch (error) {
      throw this.#error(
        RecorderErrorCode.RESUME_FAILED,
        'could not read the tail of the transcript to resume it',
        error,
      )
    }
    const last = tail.lastRecord?.uuid ?? null
    if (this.#meta !== null) {
      this.#metaBaseLoading = loadMetaBase(this.#meta, this.#dir, this.sessionId, tail.exists, last)
    }
    this.#lastUuid = last
    this.#writtenUuid = last
    this.#syncedUuid = last
    if (tail.tornBytes === 0) return
    // The `recovered` record is queued now, first, so every later record chains onto it; its text is
    // completed (with the quarantine path) once the repair has run, before anything is written.
    const repair: PendingRepair = {
      validLength: tail.validLength,
      tornBytes: tail.tornBytes,
      uuid: randomUUID(),
      parentUuid: last,
      timestamp: isoTimestamp(),
    }
    this.#repair = repair
    this.#queue.push(recoveredRecord(repair, this.#sessionIdJson, null, 0), repair.uuid, repair.timestamp)
    this.#lastUuid = repair.uuid
    this.#recorded++
  }

  #createMetaWriter(): MetaWriter {
    return createMetaWriter(this.#dir, this.sessionId, this.#o.metaDebounceMs, (error) =>
      this.#report(this.#error(RecorderErrorCode.META_FAILED, 'could not write the meta sidecar', error)),
    )
  }

  async #repairIfPending(epoch: number): Promise<void> {
    const repair = this.#repair
    if (repair === null) return
    let result: { quarantinePath: string | null; quarantinedBytes: number }
    this.#repairing = true
    try {
      result = await this.#io(epoch, () => repairTornTail(this.filePath, { validLength: repair.validLength }))
    } catch (error) {
      this.#checkEpoch(epoch)
      throw this.#error(
        RecorderErrorCode.REPAIR_FAILED,
        'could not quarantine the torn tail of the transcript',
        error,
      )
    } finally {
      this.#repairing = false
    }
    this.#checkEpoch(epoch)
    this.#repair = null
    this.#queue.replace(
      repair.uuid,
      recoveredRecord(repair, this.#sessionIdJson, result.quarantinePath, result.quarantinedBytes),
    )
  }

  #repairIfPendingSync(): void {
    const repair = this.#repair
    if (repair === null) return
    this.#repair = null
    try {
      const result = repairTornTailSync(this.filePath, { validLength: repair.validLength })
      this.#queue.replace(
        repair.uuid,
        recoveredRecord(repair, this.#sessionIdJson, result.quarantinePath, result.quarantinedBytes),
      )
    } catch {
      // At exit a failed repair must not stop the drain: the open step sees the torn last line and starts
      // our first record on a new line, so nothing is glued; the `recovered` record says nothing was moved.
    }
  }

  // ---------------------------------------------------------------- lock

  #setUpLockSync(): void {
    // The lock directory lives next to the transcript, so the directory must exist first. Both are done
    // synchronously here, once, so that from the moment createRecorder returns the exit drain knows whether
    // the session is ours; on failure the open step retries them asynchronously.
    try {
      this.#fs.mkdirSync(this.#dir, DIR_MODE)
      this.#dirReady = true
    } catch {
      // Reported and retried by the asynchronous open step, which repeats the mkdir.
      return
    }
    this.#lock.start(true)
  }

  async #ensureLock(epoch: number): Promise<void> {
    if (this.#lock.isOurs()) return
    // Never start taking a lock after close() released it: nothing would release it again.
    if (this.#closed) throw CLOSED
    await this.#lock.settle()
    this.#checkEpoch(epoch)
    if (this.#lock.checkTaken()) await this.#verifyUntouched(epoch)
  }

  async #verifyUntouched(epoch: number): Promise<void> {
    if (this.#fd === null || this.#ident === null) return
    const fd = this.#fd
    const stats = await this.#io(epoch, () => this.#fs.fstat(fd))
    this.#checkEpoch(epoch)
    if (stats.size !== this.#fileSize) {
      const error = this.#error(
        RecorderErrorCode.LOCK_COMPROMISED,
        `the transcript changed (${this.#fileSize} → ${stats.size} bytes) while the lock was not held; another writer may have forked the session`,
        undefined,
      )
      this.#fatal = error
      throw error
    }
  }

  #lockIsOurs(): boolean {
    return this.#lock.isOurs()
  }

  // ---------------------------------------------------------------- the write loop

  #schedule(): void {
    if (this.#busy || this.#scheduled || this.#retryTimer !== null || this.#fatal !== null || this.#closed)
      return
    this.#scheduled = true
    // setImmediate, not a microtask: a synchronous burst of record() calls all lands in one write, and the
    // encoding of that write runs as its own event-loop task instead of extending the caller's.
    setImmediate(() => {
      this.#scheduled = false
      void this.#run()
    })
  }

  #retryNow(): void {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#retryTimer = null
    this.#schedule()
  }

  async #run(): Promise<void> {
    if (this.#busy) return
    this.#busy = true
    const epoch = this.#epoch
    try {
      await this.#loop(epoch)
      this.#recovered()
    } catch (error) {
      // Taken over by a synchronous drain, or closed: the state is no longer this loop's to touch.
      if (error === TAKEN_OVER || error === CLOSED) return
      this.#fail(
        error instanceof RecorderError
          ? error
          : this.#error(RecorderErrorCode.WRITE_FAILED, 'write loop failed', error),
      )
    } finally {
      if (this.#epoch === epoch) this.#busy = false
    }
    if (this.#failure === null && this.#hasWork()) this.#schedule()
  }

  #hasWork(): boolean {
    if (this.#closed) return false
    return (
      (this.#fd === null && this.#accepting) ||
      !this.#queue.isEmpty ||
      this.#current !== null ||
      this.#carry !== null ||
      this.#waiters.length > 0
    )
  }

  /** Runs one file-system call under the process-wide cap, unless a synchronous drain took over meanwhile. */
  #io<T>(epoch: number, call: () => Promise<T>): Promise<T> {
    return limited(() => (this.#epoch === epoch ? call() : Promise.reject(TAKEN_OVER)))
  }

  async #loop(epoch: number): Promise<void> {
    for (;;) {
      if (this.#closed) throw CLOSED
      if (this.#fatal !== null) throw this.#fatal
      // The directory first: the lock directory lives in it.
      if (!this.#dirReady && this.#accepting) await this.#ensureDir(epoch)
      await this.#ensureLock(epoch)
      if (this.#fd === null) {
        if (!this.#accepting && this.#queue.isEmpty && this.#current === null && this.#carry === null) return
        await this.#openFile(epoch)
      }
      // Before anything else goes into a recreated transcript: what the replaced one held since its last check.
      if (this.#carry !== null) await this.#copyCarry(epoch)
      if (this.#current === null && this.#queue.isEmpty) {
        if (this.#finalCheck && this.#fileSize > this.#verifiedOffset) {
          // close(): one last look at the path, so what this recorder wrote is in the file found there.
          this.#suspectFile = true
          await this.#checkFileIfDue(epoch)
          continue
        }
        if (await this.#syncForWaiters(epoch)) continue
        this.#settleWaiters()
        return
      }
      await this.#checkFileIfDue(epoch)
      if (this.#fd === null) continue
      this.#current ??= this.#take()
      if (this.#current === null) continue
      await this.#writeCurrent(epoch, this.#current)
      if (this.#o.fsync === 'batch') await this.#fdatasync(epoch)
      else await this.#syncForWaiters(epoch)
      this.#settleWaiters()
    }
  }

  #take(): Current | null {
    const chunk = this.#queue.nextChunk(this.#o.maxWriteBytes)
    if (chunk === null) return null
    let buffer = chunk.buffer
    if (this.#needsNewline) {
      // Terminate a torn last line so our first record starts on a line of its own.
      buffer = Buffer.concat([Buffer.of(NEWLINE), buffer])
      this.#needsNewline = false
    }
    return { chunk, buffer, written: 0 }
  }

  async #writeCurrent(epoch: number, current: Current): Promise<void> {
    await this.#writeAll(
      epoch,
      this.#fd!,
      current.buffer,
      current.written,
      (bytes) => (current.written += bytes),
    )
    this.#commit(current)
  }

  #commit(current: Current): void {
    this.#current = null
    if (current.chunk.nextHeadChars === 0) this.#lineStart = this.#fileSize
    this.#queue.commit(current.chunk)
    const { completes, lastUuid, firstTimestamp, lastTimestamp } = current.chunk
    if (completes > 0) {
      this.#written += completes
      this.#writtenUuid = lastUuid
      this.#firstWrittenAt ??= firstTimestamp
      this.#lastWrittenAt = lastTimestamp
      if (completes > this.#maxBatchRecords) this.#maxBatchRecords = completes
    }
  }

  /** One fdatasync if a flush() waits for records that are written but not yet synced. */
  async #syncForWaiters(epoch: number): Promise<boolean> {
    if (this.#o.fsync === 'never' || this.#synced >= this.#written) return false
    const written = this.#written
    if (!this.#waiters.some((waiter) => waiter.target <= written && waiter.target > this.#synced))
      return false
    await this.#fdatasync(epoch)
    return true
  }

  async #fdatasync(epoch: number): Promise<void> {
    const fd = this.#fd!
    const written = this.#written
    const writtenUuid = this.#writtenUuid
    let transientFailures = 0
    for (;;) {
      try {
        await this.#io(epoch, () => this.#fs.fdatasync(fd))
        break
      } catch (error) {
        this.#checkEpoch(epoch)
        if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
          this.#retries++
          await delay(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
          this.#checkEpoch(epoch)
          continue
        }
        throw this.#error(RecorderErrorCode.FSYNC_FAILED, 'fdatasync of the transcript failed', error)
      }
    }
    this.#checkEpoch(epoch)
    this.#fsyncs++
    this.#synced = written
    this.#syncedUuid = writtenUuid
  }

  async #ensureDir(epoch: number): Promise<void> {
    try {
      await this.#io(epoch, () => this.#fs.mkdir(this.#dir, DIR_MODE))
    } catch (error) {
      this.#checkEpoch(epoch)
      throw this.#error(RecorderErrorCode.DIR_FAILED, `could not create the directory ${this.#dir}`, error)
    }
    this.#checkEpoch(epoch)
    // Remembered only once it succeeded: a failed mkdir is tried again on the next attempt.
    this.#dirReady = true
  }

  async #openFile(epoch: number): Promise<void> {
    if (!this.#dirReady) await this.#ensureDir(epoch)
    await this.#repairIfPending(epoch)
    let fd: number
    try {
      fd = await this.#io(epoch, () => this.#fs.open(this.filePath, OPEN_FLAGS, FILE_MODE))
    } catch (error) {
      this.#checkEpoch(epoch)
      if (errorCode(error) !== 'ENOENT') {
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', error)
      }
      // The directory was removed since it was created: create it again, once, and retry.
      this.#dirReady = false
      this.#fs.forgetDir(this.#dir)
      await this.#ensureDir(epoch)
      try {
        fd = await this.#io(epoch, () => this.#fs.open(this.filePath, OPEN_FLAGS, FILE_MODE))
      } catch (retryError) {
        this.#checkEpoch(epoch)
        if (errorCode(retryError) === 'ENOENT') this.#dirReady = false
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', retryError)
      }
    }
    if (this.#epoch !== epoch) {
      // A synchronous drain opened its own descriptor meanwhile; this one is surplus.
      void limited(() => this.#fs.close(fd)).catch(ignore)
      throw TAKEN_OVER
    }
    try {
      const stats = await this.#io(epoch, () => this.#fs.fstat(fd))
      let endsWithNewline = true
      if (stats.size > 0) {
        const last = Buffer.alloc(1)
        await this.#io(epoch, () => this.#fs.read(fd, last, 0, 1, stats.size - 1))
        endsWithNewline = last[0] === NEWLINE
      }
      this.#checkEpoch(epoch)
      // close() returned while this open was in flight: the descriptor is not adopted but closed.
      if (this.#closed) throw CLOSED
      this.#adoptFd(fd, stats, endsWithNewline)
    } catch (error) {
      void limited(() => this.#fs.close(fd)).catch(ignore)
      if (error === TAKEN_OVER || error === CLOSED) throw error
      throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not inspect the opened transcript', error)
    }
  }

  #adoptFd(fd: number, stats: { dev: number; ino: number; size: number }, endsWithNewline: boolean): void {
    this.#fd = fd
    this.#ident = { dev: stats.dev, ino: stats.ino }
    this.#fileSize = stats.size
    this.#verifiedOffset = stats.size
    this.#lineStart = stats.size
    // A record of ours half written before a reopen (EBADF) continues from its next byte: the file ends
    // inside it, which is not a torn line to close. (A replaced file instead gets the carry, which checks.)
    const continuing = this.#current !== null && this.#current.written > 0 && this.#carry === null
    this.#needsNewline = !endsWithNewline && !continuing
    this.#lastFileCheck = Date.now()
    this.#suspectFile = false
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve()
  }

  /**
   * The file at the path is not the one we hold open: keep the old descriptor to carry over the bytes
   * written since the last check that found it there, and drop it as the transcript. Decided by the check,
   * not by comparing inodes at the reopen: a recreated file can get the same inode number.
   */
  #replaced(): void {
    const fd = this.#fd
    this.#fd = null
    if (fd === null) return
    const previous = this.#carry
    if (previous !== null) {
      // Replaced again before the carry was complete: the bytes to carry are still the older ones, and what
      // was copied so far went with the file that was just replaced, so the copy starts over.
      previous.copied = 0
      if (previous.fd !== fd) void limited(() => this.#fs.close(fd)).catch(ignore)
      return
    }
    this.#carry = carryFrom(fd, this.#verifiedOffset, this.#fileSize, this.#lineStart)
    if (this.#carry === null) void limited(() => this.#fs.close(fd)).catch(ignore)
  }

  /** Copies the carried bytes into the transcript, first, then lets the old file go. */
  async #copyCarry(epoch: number): Promise<void> {
    const carry = this.#carry!
    const fd = this.#fd!
    const buffer = carryBuffer(carry)
    if (this.#needsNewline) {
      await this.#writeAll(epoch, fd, Buffer.of(NEWLINE), 0, () => {})
      this.#needsNewline = false
    }
    while (carryRemaining(carry) > 0) {
      const want = Math.min(buffer.length, carryRemaining(carry))
      let read: number
      try {
        read = await this.#io(epoch, () =>
          this.#fs.read(carry.fd, buffer, 0, want, carry.start + carry.copied),
        )
      } catch (error) {
        this.#checkEpoch(epoch)
        throw this.#error(
          RecorderErrorCode.WRITE_FAILED,
          'could not read back the replaced transcript',
          error,
        )
      }
      this.#checkEpoch(epoch)
      // The old file cannot have shrunk under our descriptor unless someone truncated it: carry what is there.
      if (read === 0) break
      await this.#writeAll(epoch, fd, buffer.subarray(0, read), 0, (bytes) => (carry.copied += bytes))
    }
    // The last complete line of the carried bytes, now in this file (a half-written record may follow it).
    this.#lineStart = carriedLineStart(carry, this.#fileSize)
    // The carried bytes held records that flush() had already reported persisted: make them durable here too.
    if (this.#o.fsync !== 'never') await this.#fdatasync(epoch)
    this.#carry = null
    void limited(() => this.#fs.close(carry.fd)).catch(ignore)
  }

  /**
   * Writes `buffer` from `from` to its end: a partial write is continued from the next byte, EAGAIN/EBUSY/
   * EINTR are retried with a short backoff, and `progress` hears of every byte that landed.
   */
  async #writeAll(
    epoch: number,
    fd: number,
    buffer: Buffer,
    from: number,
    progress: (bytes: number) => void,
  ): Promise<void> {
    let offset = from
    let transientFailures = 0
    while (offset < buffer.length) {
      // The lock can be lost between two writes (proper-lockfile reports it from a timer): not one more
      // byte then, until it is ours again.
      if (!this.#lockIsOurs()) {
        throw (
          this.#failure ?? this.#error(RecorderErrorCode.LOCK_COMPROMISED, 'lost the session lock', undefined)
        )
      }
      const at = offset
      let written: number
      try {
        written = await this.#io(epoch, () => {
          this.#inFlight = {
            base: this.#fileSize,
            length: buffer.length - at,
            landed: (bytes) => {
              offset += bytes
              progress(bytes)
            },
          }
          return this.#fs.write(fd, buffer, at, buffer.length - at)
        })
      } catch (error) {
        this.#checkEpoch(epoch)
        this.#inFlight = null
        if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
          this.#retries++
          await delay(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
          this.#checkEpoch(epoch)
          continue
        }
        this.#suspectFile = true
        if (errorCode(error) === 'EBADF') {
          // Our descriptor was closed under us: what was written through it cannot be synced any more, so a
          // flush() waiting for that sync must not wait forever. The next attempt opens the file again.
          this.#synced = this.#written
          this.#syncedUuid = this.#writtenUuid
          this.#forgetFd()
        }
        throw this.#error(RecorderErrorCode.WRITE_FAILED, 'write to the transcript failed', error)
      }
      this.#checkEpoch(epoch)
      this.#inFlight = null
      this.#writes++
      this.#bytesWritten += written
      this.#fileSize += written
      offset += written
      progress(written)
      if (written === 0) {
        if (transientFailures >= TRANSIENT_RETRIES) {
          throw this.#error(RecorderErrorCode.WRITE_FAILED, 'the transcript accepted no bytes', undefined)
        }
        this.#retries++
        await delay(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
        this.#checkEpoch(epoch)
      }
    }
  }

  #forgetFd(): void {
    const fd = this.#fd
    this.#fd = null
    if (fd !== null) void limited(() => this.#fs.close(fd)).catch(ignore)
  }

  /**
   * Before a write, at most every `fileCheckIntervalMs` (and always after an error): does the path still
   * name the file we hold open? If it was deleted or replaced, writing on would fill an unlinked inode, so
   * the descriptor is dropped and the loop opens (creates) the transcript again.
   */
  async #checkFileIfDue(epoch: number): Promise<void> {
    const interval = this.#o.fileCheckIntervalMs
    const now = Date.now()
    if (!this.#suspectFile && interval > 0 && now - this.#lastFileCheck < interval) return
    let replaced: boolean
    try {
      const stats = await this.#io(epoch, () => this.#fs.lstat(this.filePath))
      replaced = stats.isSymbolicLink || stats.ino !== this.#ident?.ino || stats.dev !== this.#ident.dev
    } catch (error) {
      this.#checkEpoch(epoch)
      if (errorCode(error) !== 'ENOENT')
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not check the transcript path', error)
      replaced = true
    }
    this.#checkEpoch(epoch)
    this.#lastFileCheck = now
    this.#suspectFile = false
    if (!replaced) {
      this.#verifiedOffset = this.#lineStart
      return
    }
    this.#reportReplaced()
    this.#replaced()
  }

  #reportReplaced(): void {
    this.#report(
      this.#error(
        RecorderErrorCode.TRANSCRIPT_REPLACED,
        `the transcript was deleted or replaced while open; recreating it and copying into it the ${this.#fileSize - this.#verifiedOffset} byte(s) written since the last check`,
        undefined,
      ),
    )
  }

  #checkEpoch(epoch: number): void {
    if (this.#epoch !== epoch) throw TAKEN_OVER
  }

  // ---------------------------------------------------------------- failures

  #fail(error: RecorderError): void {
    this.#errors++
    const first = this.#failure === null
    this.#failure = error
    this.#report(error, first)
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#withCount(error))
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(this.#withCount(error))
    if (
      error instanceof SessionLockedError ||
      (error.code === RecorderErrorCode.LOCK_COMPROMISED && this.#fatal === error)
    ) {
      this.#fatal = error
      return
    }
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#retries++
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null
      this.#schedule()
    }, this.#retryDelay)
    // A failing recorder must not keep the process alive; the exit drain makes the last attempt.
    this.#retryTimer.unref()
    this.#retryDelay = Math.min(this.#retryDelay * 2, RETRY_MAX_MS)
  }

  #recovered(): void {
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#retryTimer = null
    this.#failure = null
    this.#warned = false
    this.#retryDelay = RETRY_MIN_MS
  }

  #report(error: RecorderError, firstOfEpisode = true): void {
    if (this.#deferReports) {
      queueMicrotask(() => this.#report(error, firstOfEpisode))
      return
    }
    const onError = this.#o.onError
    if (onError === undefined) {
      // Never silent: without a handler, the first failure of each episode becomes a process warning.
      if (firstOfEpisode && !this.#warned) {
        this.#warned = true
        if (this.#exiting) writeStderr(`${error.name} [${error.code}]: ${error.message}\n`)
        else process.emitWarning(error)
      }
      return
    }
    try {
      onError(error)
    } catch {
      // The handler's own failure must not break the write loop; the error itself was delivered.
    }
  }

  #error(code: RecorderErrorCode, what: string, cause: unknown): RecorderError {
    return sessionError(this.#details(), code, what, cause)
  }

  /** The same error, restated with the count of records unwritten now. */
  #withCount(error: RecorderError): RecorderError {
    return withUnwrittenCount(error, this.#details())
  }

  #details(): SessionDetails {
    return { sessionId: this.sessionId, filePath: this.filePath, unwrittenRecords: this.#unwritten() }
  }

  #unwritten(): number {
    return this.#recorded - (this.#o.fsync === 'never' ? this.#written : this.#synced)
  }

  // ---------------------------------------------------------------- watermarks

  #persistedCount(): number {
    return this.#o.fsync === 'batch' ? this.#synced : this.#written
  }

  #persistedUuid(): string | null {
    return this.#o.fsync === 'batch' ? this.#syncedUuid : this.#writtenUuid
  }

  #satisfied(target: number): boolean {
    return (this.#o.fsync === 'never' ? this.#written : this.#synced) >= target
  }

  #settleWaiters(): void {
    if (this.#meta !== null && this.#persistedCount() !== this.#metaCount) {
      this.#metaCount = this.#persistedCount()
      this.#meta.persisted(this.#metaCount, this.#persistedUuid(), this.#firstWrittenAt, this.#lastWrittenAt)
    }
    if (this.#waiters.length === 0) return
    const watermark = this.persisted
    const waiting: Waiter[] = []
    for (const waiter of this.#waiters) {
      if (this.#satisfied(waiter.target)) waiter.resolve(watermark)
      else waiting.push(waiter)
    }
    this.#waiters = waiting
  }

  // ---------------------------------------------------------------- synchronous drains

  /**
   * Writes everything queued with synchronous calls: the exit safety net, `flushSync()` and the overflow
   * policy. It takes over the async loop's state (bumping the epoch so the loop stops when its pending call
   * returns), first letting a write already in the threadpool land so that nothing is written twice.
   * Returns whether the queue is empty afterwards; never throws.
   */
  #drainSync(sync: boolean): boolean {
    // A pending carry counts as work: those bytes are only in the replaced file until they are copied.
    if (
      this.#queue.isEmpty &&
      this.#current === null &&
      this.#carry === null &&
      (!sync || this.#synced >= this.#written)
    )
      return true
    if (this.#fatal !== null || !this.#lockIsOurs()) return false
    // Outside the exit listener the process goes on, so a write still waiting in the threadpool will run:
    // writing its bytes here as well would put those records in the file twice. Give up instead (the
    // records stay queued for the async loop) unless it lands within the bounded wait.
    if (!this.#exiting && (this.#repairing || !this.#inFlightLandsSync())) return false
    this.#epoch++
    this.#scheduled = false
    try {
      if (this.#fd === null) this.#openSync()
      else {
        this.#settleInFlightSync()
        this.#checkFileSync()
      }
      const carried = this.#carry !== null
      if (carried) this.#copyCarrySync()
      for (;;) {
        this.#current ??= this.#take()
        if (this.#current === null) break
        this.#writeCurrentSync(this.#current)
      }
      // Carried bytes held records already reported persisted: they are synced here too.
      if ((sync || this.#o.fsync === 'batch') && (this.#synced < this.#written || carried)) {
        try {
          this.#fs.fdatasyncSync(this.#fd!)
        } catch (error) {
          throw this.#error(RecorderErrorCode.FSYNC_FAILED, 'fdatasync of the transcript failed', error)
        }
        this.#fsyncs++
        this.#synced = this.#written
        this.#syncedUuid = this.#writtenUuid
      }
      this.#recovered()
      this.#settleWaiters()
      return true
    } catch (error) {
      const failure =
        error instanceof RecorderError
          ? error
          : this.#error(RecorderErrorCode.WRITE_FAILED, 'synchronous write failed', error)
      this.#fail(failure)
      return false
    } finally {
      // The async loop (if one was waiting on a call) stops at its next await; let a new one start later.
      this.#busy = false
    }
  }

  #openSync(): void {
    if (!this.#dirReady) {
      try {
        this.#fs.mkdirSync(this.#dir, DIR_MODE)
      } catch (error) {
        throw this.#error(RecorderErrorCode.DIR_FAILED, `could not create the directory ${this.#dir}`, error)
      }
      this.#dirReady = true
    }
    this.#repairIfPendingSync()
    let fd: number
    try {
      fd = this.#fs.openSync(this.filePath, OPEN_FLAGS, FILE_MODE)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', error)
      }
      // The directory was removed since it was created: create it again, once, and retry.
      try {
        this.#fs.forgetDir(this.#dir)
        this.#fs.mkdirSync(this.#dir, DIR_MODE)
        fd = this.#fs.openSync(this.filePath, OPEN_FLAGS, FILE_MODE)
      } catch (retryError) {
        this.#dirReady = false
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', retryError)
      }
    }
    try {
      const stats = this.#fs.fstatSync(fd)
      let endsWithNewline = true
      if (stats.size > 0) {
        const last = Buffer.alloc(1)
        this.#fs.readSync(fd, last, 0, 1, stats.size - 1)
        endsWithNewline = last[0] === NEWLINE
      }
      this.#adoptFd(fd, stats, endsWithNewline)
    } catch (error) {
      try {
        this.#fs.closeSync(fd)
      } catch {
        // The descriptor is being abandoned anyway.
      }
      throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not inspect the opened transcript', error)
    }
  }

  /** The synchronous twin of the path check: a drain also writes into the file found at the path. */
  #checkFileSync(): void {
    let replaced: boolean
    try {
      const stats = this.#fs.lstatSync(this.filePath)
      replaced = stats.isSymbolicLink || stats.ino !== this.#ident?.ino || stats.dev !== this.#ident.dev
    } catch (error) {
      // Cannot tell (e.g. EACCES on the directory): write on into the open file rather than not at all.
      if (errorCode(error) !== 'ENOENT') return
      replaced = true
    }
    if (!replaced) {
      this.#verifiedOffset = this.#lineStart
      return
    }
    this.#reportReplaced()
    this.#replaced()
    this.#openSync()
  }

  /** Waits, bounded, for a write in the threadpool to land in full; true if none is in flight. */
  #inFlightLandsSync(): boolean {
    const inFlight = this.#inFlight
    if (inFlight === null || this.#fd === null) return true
    // Waited for in vain once already: look again without waiting, so a producer whose every record()
    // overflows is not blocked for the whole bound on each call.
    const wait = inFlight !== this.#stalledWrite
    try {
      if (landedSync(this.#fs, this.#fd, inFlight, wait, this.#exiting) >= inFlight.length) return true
    } catch {
      // fstat failed: whether the write landed cannot be told, so nothing is taken over. (This runs outside
      // the drain's try: it must not throw out of record() or flushSync().)
      return false
    }
    this.#stalledWrite = inFlight
    return false
  }

  #settleInFlightSync(): void {
    const inFlight = this.#inFlight
    if (inFlight === null || this.#fd === null) return
    this.#inFlight = null
    const landed = landedSync(this.#fs, this.#fd, inFlight, true, this.#exiting)
    this.#fileSize = inFlight.base + landed
    this.#bytesWritten += landed
    if (landed > 0) this.#writes++
    inFlight.landed(landed)
  }

  #copyCarrySync(): void {
    const carry = this.#carry!
    const fd = this.#fd!
    const buffer = carryBuffer(carry)
    if (this.#needsNewline) {
      this.#writeAllSync(fd, Buffer.of(NEWLINE), 0, () => {})
      this.#needsNewline = false
    }
    while (carryRemaining(carry) > 0) {
      const want = Math.min(buffer.length, carryRemaining(carry))
      let read: number
      try {
        read = this.#fs.readSync(carry.fd, buffer, 0, want, carry.start + carry.copied)
      } catch (error) {
        throw this.#error(
          RecorderErrorCode.WRITE_FAILED,
          'could not read back the replaced transcript',
          error,
        )
      }
      if (read === 0) break
      this.#writeAllSync(fd, buffer.subarray(0, read), 0, (bytes) => (carry.copied += bytes))
    }
    this.#lineStart = carriedLineStart(carry, this.#fileSize)
    this.#carry = null
    try {
      this.#fs.closeSync(carry.fd)
    } catch {
      // The old file is let go either way.
    }
  }

  #writeCurrentSync(current: Current): void {
    this.#writeAllSync(this.#fd!, current.buffer, current.written, (bytes) => (current.written += bytes))
    this.#commit(current)
  }

  /** Writes `buffer` from `from` to its end (continuing partial writes, retrying transient errors). */
  #writeAllSync(fd: number, buffer: Buffer, from: number, progress: (bytes: number) => void): void {
    let offset = from
    let transientFailures = 0
    while (offset < buffer.length) {
      let written: number
      try {
        written = this.#fs.writeSync(fd, buffer, offset, buffer.length - offset)
      } catch (error) {
        if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
          this.#retries++
          sleepSync(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
          continue
        }
        this.#suspectFile = true
        throw this.#error(RecorderErrorCode.WRITE_FAILED, 'write to the transcript failed', error)
      }
      this.#writes++
      this.#bytesWritten += written
      this.#fileSize += written
      offset += written
      progress(written)
      if (written === 0) {
        if (transientFailures >= TRANSIENT_RETRIES) {
          throw this.#error(RecorderErrorCode.WRITE_FAILED, 'the transcript accepted no bytes', undefined)
        }
        this.#retries++
        sleepSync(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
      }
    }
  }

  #drainOnExit(): void {
    this.#exiting = true
    const hadWork = !this.#queue.isEmpty || this.#current !== null || this.#carry !== null
    if (hadWork && !this.#drainSync(false) && this.#fatal === null) {
      this.#report(
        this.#error(
          RecorderErrorCode.WRITE_FAILED,
          `the process is exiting and ${this.#queue.pendingRecords} record(s) could not be written`,
          this.#failure ?? undefined,
        ),
      )
    }
    if (this.#lockIsOurs()) this.#meta?.flushSync()
    this.#lock.exitSync()
  }

  // ---------------------------------------------------------------- close

  async #close(): Promise<void> {
    this.#finalCheck = true
    try {
      // Through the loop even when nothing is pending: it makes the final check of the path.
      await this.#flush(this.#fd !== null)
    } catch (error) {
      // A failure that retrying can fix keeps everything (queue, lock, exit drain) for the next close();
      // a final one (the session is someone else's) has nothing left to wait for.
      if (this.#fatal === null) throw error
      await this.#releaseAll()
      throw error
    }
    if (this.#metaBaseLoading !== null) await this.#metaBaseLoading
    await this.#meta?.flush()
    await this.#releaseAll()
  }

  async #releaseAll(): Promise<void> {
    this.#meta?.stop()
    this.#unregisterExit()
    this.#closed = true
    // The loop stops now, so no later open will settle a pending ready(); ready() after close() resolves.
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve()
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#retryTimer = null
    const fd = this.#fd
    this.#fd = null
    if (fd !== null) await limited(() => this.#fs.close(fd)).catch(ignore)
    const carry = this.#carry
    this.#carry = null
    if (carry !== null) await limited(() => this.#fs.close(carry.fd)).catch(ignore)
    await this.#lock.release()
  }
}

function writeStderr(text: string): void {
  try {
    process.stderr.write(text)
  } catch {
    // stderr itself may be gone (EPIPE) at exit; there is nowhere left to report to.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function ignore(): void {
  // Closing or releasing something already gone or broken: nothing left to do.
}

/**
 * Creates the recorder of one session. Synchronous: validates the options (a bad one is a `TypeError`),
 * creates the directory and takes the lock's directory (on failure both are retried asynchronously and
 * reported), and starts opening the transcript in the background. From then on no call makes a
 * synchronous file-system call, except `flushSync()`, the `drain-sync` overflow policy and the exit drain.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  return new SessionRecorder(resolveOptions(options))
}
