import { RecorderErrorCode } from '../../errors.js'
import {
  errorCode,
  isTransient,
  TRANSIENT_FIRST_DELAY_MS,
  TRANSIENT_RETRIES,
} from '../../util/transient-errors.js'
import type { InFlight } from '../loop/in-flight-write.js'
import * as io from '../loop/io.js'
import type { ErrorFactory } from '../tamper/path-outcome.js'

/**
 * The transcript's two loops that talk to the disk for its writes: one write of a buffer (partial writes
 * continued, transient errors retried with a backoff, the lock asked before each call) and one fdatasync
 * (retried the same way). {@link Transcript} owns the descriptor and the state; these loops only call it.
 */

/** Completed writes, the bytes they wrote, and the calls retried after a transient error (for `stats()`). */
export class WriteCounts {
  writes = 0
  bytesWritten = 0
  retries = 0
}

/** What the write loop needs of the transcript it writes for. */
export interface WriteHost {
  readonly error: ErrorFactory
  readonly counts: WriteCounts
  /** The size of the file as our writes left it: where the next bytes land. */
  size(): number
  /**
   * Before each write call: the call must not be made — the lock was lost since the file was last checked,
   * or it was overdue and the file changed while its heartbeat was awaited.
   */
  lockLost(): io.Io<boolean>
  /** `bytes` of ours landed at the end of the file (`size` grows by their length). */
  landed(bytes: Uint8Array): void
  /** A write handed to the OS and not yet returned (null: none): a synchronous drain must account for it. */
  setInFlight(inFlight: InFlight | null): void
  /** The write failed for good: check the path before the next one; EBADF: `fd` is not ours any more. */
  failed(fd: number, badDescriptor: boolean): void
}

/**
 * Writes `buffer[from..]` at the end of the file open as `fd`, continuing partial writes and retrying
 * transient errors; `progress` hears of every byte that landed (also of bytes a synchronous drain found
 * landed on this write's behalf).
 */
export function* writeAll(
  host: WriteHost,
  fd: number,
  buffer: Uint8Array,
  from: number,
  progress: (bytes: number) => void,
): io.Io<void> {
  let offset = from
  let transientFailures = 0
  while (offset < buffer.length) {
    if (yield* host.lockLost()) {
      // Whether somebody wrote while the lock was lost only a check of the file can tell (see Custody).
      // This attempt ends; the next one checks first.
      host.failed(fd, false)
      throw host.error(
        RecorderErrorCode.LOCK_COMPROMISED,
        'the session lock was lost while writing (or overdue for its refresh while the transcript changed); the transcript is checked before writing on',
        undefined,
      )
    }
    const landed = (bytes: number): void => {
      host.landed(buffer.subarray(offset, offset + bytes))
      offset += bytes
      host.counts.writes++
      host.counts.bytesWritten += bytes
      progress(bytes)
    }
    host.setInFlight({ base: host.size(), length: buffer.length - offset, landed })
    let written: number
    try {
      written = yield* io.write(fd, buffer, offset, buffer.length - offset)
    } catch (error) {
      host.setInFlight(null)
      if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
        host.counts.retries++
        yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
        continue
      }
      // Someone closed our descriptor: the number is no longer ours to use or to close (it may already name
      // a file the host opened since). The transcript forgets it; the next attempt opens the file again.
      host.failed(fd, errorCode(error) === 'EBADF')
      throw host.error(RecorderErrorCode.WRITE_FAILED, 'write to the transcript failed', error)
    }
    host.setInFlight(null)
    landed(written)
    if (written === 0) {
      if (transientFailures >= TRANSIENT_RETRIES) {
        throw host.error(RecorderErrorCode.WRITE_FAILED, 'the transcript accepted no bytes', undefined)
      }
      host.counts.retries++
      yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
    }
  }
}

/**
 * fdatasync of the file open as `fd` (transient errors retried), then an fsync of each directory entry
 * made for it (`entries`), so a power cut cannot take away a file whose records were acknowledged.
 */
export function* syncAll(
  fd: number,
  entries: io.NewEntries,
  counts: WriteCounts,
  error: ErrorFactory,
): io.Io<void> {
  let transientFailures = 0
  for (;;) {
    try {
      yield* io.fdatasync(fd)
      break
    } catch (cause) {
      if (isTransient(cause) && transientFailures < TRANSIENT_RETRIES) {
        counts.retries++
        yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
        continue
      }
      throw error(RecorderErrorCode.FSYNC_FAILED, 'fdatasync of the transcript failed', cause)
    }
  }
  try {
    yield* entries.sync()
  } catch (cause) {
    throw error(
      RecorderErrorCode.FSYNC_FAILED,
      "fsync of the transcript's directory failed (the file may not survive a power cut)",
      cause,
    )
  }
}
