import path from 'node:path'

import { RecorderErrorCode, SessionLockedError } from '../errors.js'
import { transcriptFileName } from '../format/record-format.js'
import { LockKeeper } from '../lock/lock-keeper.js'
import type { ResolvedOptions } from '../options.js'
import { nodeFs, type RecorderFs } from '../util/recorder-fs.js'
import { Admission } from './accept/admission.js'
import { Custody } from './tamper/custody.js'
import { FailureLatch } from './loop/failure-latch.js'
import { runSync } from './loop/io.js'
import { SessionSidecar } from './meta/meta-sidecar.js'
import { RecordQueue } from './queue/record-queue.js'
import { Reporter } from './loop/reporter.js'
import { fileToResume, inspectForResume, recoveredRecord } from './resume/resume.js'
import { Sequencer } from './accept/sequencer.js'
import { type SessionDetails, sessionError, withUnwrittenCount } from './session-errors.js'
import { type ErrorFactory, Transcript } from './file/transcript.js'
import { TurnShaper } from './accept/turns/turn-shaper.js'
import { Writer } from './loop/writer.js'
import { profileRules } from './accept/writer-profile.js'

/** The parts of one recorder, joined: what the facade (`recorder.ts`) drives. */
export interface Parts {
  readonly sessionId: string
  /** Absolute path of the transcript. */
  readonly filePath: string
  readonly fs: RecorderFs
  readonly queue: RecordQueue
  readonly sequencer: Sequencer
  readonly transcript: Transcript
  readonly writer: Writer
  /** Whether writing failed, and whether for good (the writer latches; the facade reads). */
  readonly latch: FailureLatch
  readonly admission: Admission
  readonly lock: LockKeeper
  readonly reporter: Reporter
  readonly meta: SessionSidecar | null
  readonly turns: TurnShaper
  /** The transcript existed before (a resume): an agent's opening records are not written again. */
  readonly resumedExisting: boolean
  /** The session's identity and its unwritten count now, for every error the recorder raises. */
  readonly details: () => SessionDetails
}

/**
 * Builds the parts of one recorder in the order their dependencies allow — resume, queue and sequencer,
 * sidecar, transcript, lock, writer, admission (which gets the writer itself) — and takes the lock
 * synchronously. Throws what resume throws (a transcript that cannot be read, or is not ours), before any
 * lock is taken. The only wiring in the recorder: each part gets the parts it asks, not callbacks to parts
 * built later.
 */
export function assembleParts(options: ResolvedOptions): Parts {
  const fs = options.fs ?? nodeFs
  const sessionId = options.sessionId
  const dir = path.resolve(options.dir)
  const filePath = path.join(dir, transcriptFileName(sessionId))
  // Errors raised before the writer exists (resume's) have nothing unwritten yet; once it does, the
  // sequencer (made before it) does too.
  let writer: Writer | undefined = undefined
  const details = (): SessionDetails => ({
    sessionId,
    filePath,
    unwrittenRecords: writer === undefined ? 0 : writer.marks.unwritten(sequencer.recorded),
  })
  const error: ErrorFactory = (code, what, cause, loss) => sessionError(details(), code, what, cause, loss)
  const reporter = new Reporter(options.onError)

  // Resume first: a transcript that cannot be read, or is not ours, throws here, before any lock is taken.
  const rules = profileRules(options)
  // A resumed session goes on in its last file: the last segment when it has any (one lock covers them all).
  const writePath = options.resume ? fileToResume(dir, sessionId) : filePath
  const resumed = options.resume ? inspectForResume(writePath, sessionId, rules.metadataTypes, error) : null
  const queue = new RecordQueue({
    maxQueueChars: options.maxQueueChars,
    maxHeldChars: options.maxHeldChars,
    maxRecordBytes: options.maxRecordBytes,
    onUnserializable: (uuid, type, cause) =>
      reporter.report(
        error(
          RecorderErrorCode.RECORD_UNSERIALIZABLE,
          `record ${uuid} ("${type}") was handed over but its data could not be serialized; it was written with a recordError field instead of its data`,
          cause,
        ),
      ),
  })
  const sequencer = new Sequencer(
    queue,
    sessionId,
    options.redact,
    resumed?.chainUuid ?? null,
    rules,
    details,
  )
  if (resumed?.torn != null) {
    // The torn bytes stay where they are (append-only); the first record says which bytes they were.
    const recovered = recoveredRecord(JSON.stringify(sessionId), resumed.chainUuid, resumed.torn)
    sequencer.acceptOwn(recovered.serialized, recovered.uuid, recovered.timestamp)
  }
  const meta = options.meta
    ? new SessionSidecar({
        dir,
        sessionId,
        debounceMs: options.metaDebounceMs,
        onError: (cause) =>
          reporter.report(error(RecorderErrorCode.META_FAILED, 'could not write the meta sidecar', cause)),
        durableFs: options.fsync === 'never' ? null : fs,
        resumed,
      })
    : null

  const transcript = new Transcript(
    writePath,
    dir,
    sessionId,
    options.fileCheckIntervalMs,
    error,
    options.fsync !== 'never',
  )
  // The lock tells custody when it is lost (never before takeLockSync, below, starts it); custody asks the
  // lock whether the file is still ours.
  const lock = new LockKeeper(
    {
      filePath,
      staleMs: options.lockStaleMs,
      error,
      lockedError: (cause) =>
        new SessionLockedError(cause === undefined ? details() : { ...details(), cause }),
      onCompromised: (lost) => {
        custody.lockLost()
        reporter.report(lost)
      },
    },
    options.lock,
  )
  const custody = new Custody(lock, filePath)
  const latch = new FailureLatch(reporter)
  writer = new Writer({
    fs,
    queue,
    transcript,
    lock,
    custody,
    reporter,
    fsync: options.fsync,
    maxWriteBytes: options.maxWriteBytes,
    recorded: () => sequencer.recorded,
    error,
    withCount: (failure) => withUnwrittenCount(failure, details()),
    follower: meta,
    resumedUuid: resumed?.lastUuid ?? null,
    latch,
  })
  const admission = new Admission({
    queue,
    writer,
    latch,
    lock,
    maxQueueChars: options.maxQueueChars,
    maxHeldChars: options.maxHeldChars,
    overflow: options.overflow,
    maxRecordBytes: options.maxRecordBytes,
    details,
  })
  if (options.lock) takeLockSync(fs, transcript, lock)
  return {
    sessionId,
    filePath,
    fs,
    queue,
    sequencer,
    transcript,
    writer,
    latch,
    admission,
    lock,
    reporter,
    meta,
    turns: new TurnShaper(options.profile, options.profileFields, sessionId),
    resumedExisting: resumed?.exists === true,
    details,
  }
}

/**
 * The lock directory lives next to the transcript, so the directory must exist first. Both are done
 * synchronously, once, so that from the moment createRecorder returns the exit drain knows whether the
 * session is ours; on failure the write loop repeats them asynchronously and reports.
 */
function takeLockSync(fs: RecorderFs, transcript: Transcript, lock: LockKeeper): void {
  try {
    // The same procedure the write loop runs (it remembers the levels it made, to fsync their parents).
    runSync(transcript.ensureDir(), { fs, lock: noLockStep })
  } catch {
    return
  }
  lock.start(true)
}

function noLockStep(): 'ok' {
  // ensureDir never asks for the lock: making the directory comes before taking it.
  return 'ok'
}
