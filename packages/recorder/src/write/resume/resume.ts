import { closeSync, lstatSync, readdirSync, readSync } from 'node:fs'
import path from 'node:path'

import { type RecorderError, RecorderErrorCode } from '../../errors.js'
import { isoTimestamp } from '../../util/iso-timestamp.js'
import { recordUuid } from '../../util/record-uuid.js'
import { RECOVERED_RECORD_TYPE, transcriptFileName } from '../../format/record-format.js'
import { continuationOfPrefix, segmentNameParts } from '../../format/segments.js'
import { type QueuedRecord, serializeRecord } from '../serialize/serialize-record.js'
import { inspectTailSync, inspectWholeTailSync, openRegularSync } from './inspect-tail.js'
import { errorCode } from '../../util/transient-errors.js'
import { OWNERSHIP_PREFIX_BYTES, ownershipOfPrefix, sessionOfPrefix } from '../../format/file-ownership.js'

/** What a resumed transcript holds at its end, found synchronously by `createRecorder`. */
export interface Resumed {
  readonly exists: boolean
  /** The last valid record of the file (null: none). */
  readonly lastUuid: string | null
  /**
   * The record the chain continues from: the last record, or, when that is metadata beside the chain (a
   * `title`, a `recovered` record), the record it hangs from — metadata never becomes a parent.
   */
  readonly chainUuid: string | null
  /** Bytes after the last valid record (a line torn by a crash, garbage): left in place, named by a record. */
  readonly torn: TornRange | null
}

/** A byte range of the transcript that holds no valid record, as the `recovered` record names it. */
export interface TornRange {
  readonly offset: number
  readonly length: number
}

/**
 * Reads the tail of the transcript to resume (bounded: its cost depends on the last record's size, not the
 * file's). Throws `ERR_RECORDER_RESUME_FAILED` if it cannot be read and `ERR_FOREIGN_FILE` if it is not ours — a file we did
 * not write is never written, so it is refused before anything is queued or locked.
 */
export function inspectForResume(
  filePath: string,
  sessionId: string,
  metadataTypes: ReadonlySet<string>,
  error: (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError,
): Resumed {
  let tail: ReturnType<typeof inspectTailSync>
  let first: Buffer
  try {
    tail = inspectTailSync(filePath)
    // No record in the bounded window (a last record or a torn tail longer than it): read back as far as
    // it takes, so the chain goes on from the real last record instead of a new root.
    if (!tail.reachedStart) tail = inspectWholeTailSync(filePath)
    first = tail.exists && tail.size > 0 ? readFirstBytes(filePath) : Buffer.alloc(0)
  } catch (cause) {
    if (errorCode(cause) === 'ERR_NOT_A_FILE') {
      throw error(
        RecorderErrorCode.NOT_A_FILE,
        `${filePath} is not a regular file (a FIFO, a socket, a device or a directory); it is never read or written as a transcript`,
        cause,
      )
    }
    throw error(
      RecorderErrorCode.RESUME_FAILED,
      'could not read the tail of the transcript to resume it',
      cause,
    )
  }
  const ownership = ownershipOfPrefix(first, tail.size)
  const firstSession = sessionOfPrefix(first)
  const otherSession =
    tail.lastRecord !== null && tail.lastRecord.sessionId !== sessionId
      ? tail.lastRecord.sessionId
      : firstSession !== null && firstSession !== sessionId
        ? firstSession
        : null
  if ((ownership.verdict !== 'ours' && ownership.verdict !== 'empty') || otherSession !== null) {
    throw error(
      RecorderErrorCode.FOREIGN_FILE,
      `${filePath} was not written by sessiontape for this session (${otherSession !== null ? `its records belong to session "${otherSession}"` : ownership.reason}); it is left untouched`,
      undefined,
    )
  }
  const last = tail.lastRecord
  const hangsFrom = last !== null && metadataTypes.has(last.type) && typeof last.parentUuid === 'string'
  return {
    exists: tail.exists,
    lastUuid: last?.uuid ?? null,
    chainUuid: hangsFrom ? last.parentUuid : (last?.uuid ?? null),
    torn: tail.tornBytes > 0 ? { offset: tail.validLength, length: tail.tornBytes } : null,
  }
}

/**
 * The file a resumed session is appended to: its last segment (format/segments.ts) — the segment whose
 * continuation record says the highest `segment` — or, with none, its path. Synchronous, like the rest of
 * `createRecorder`'s resume: one directory listing and the first bytes of each file named like a segment.
 */
export function fileToResume(dir: string, sessionId: string): string {
  const sessionPath = path.join(dir, transcriptFileName(sessionId))
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    // No directory (a new session) or none readable: the path, whose own checks say what is wrong.
    return sessionPath
  }
  let last: { readonly segment: number; readonly n: number; readonly path: string } | undefined
  for (const name of names) {
    const parts = segmentNameParts(name)
    if (parts?.sessionId !== sessionId) continue
    const segmentPath = path.join(dir, name)
    let prefix: Buffer
    try {
      // A link is no segment (the readers never follow one either, and the writer opens with O_NOFOLLOW).
      if (lstatSync(segmentPath).isSymbolicLink()) continue
      prefix = readFirstBytes(segmentPath)
    } catch {
      // Not a regular file, or unreadable: not a segment the session can go on in.
      continue
    }
    const continuation = continuationOfPrefix(prefix, prefix.length, sessionId)
    if (continuation === undefined || continuation.segment < 2) continue
    // The file the readers read last: the highest `segment`, then the highest number in the name.
    const later =
      last === undefined ||
      continuation.segment > last.segment ||
      (continuation.segment === last.segment && parts.n > last.n)
    if (later) last = { segment: continuation.segment, n: parts.n, path: segmentPath }
  }
  return last?.path ?? sessionPath
}

function readFirstBytes(filePath: string): Buffer {
  const fd = openRegularSync(filePath)
  try {
    const buffer = Buffer.alloc(OWNERSHIP_PREFIX_BYTES)
    return buffer.subarray(0, readSync(fd, buffer, 0, OWNERSHIP_PREFIX_BYTES, 0))
  } finally {
    closeSync(fd)
  }
}

/**
 * The `recovered` record a resume appends first when the transcript ended in torn bytes: the bytes stay
 * where they are (the file only grows, so log shippers' offsets stay valid) and this record names their
 * range, so readers report them as recovered rather than as damage.
 */
export function recoveredRecord(
  sessionIdJson: string,
  parentUuid: string | null,
  torn: TornRange,
): { serialized: QueuedRecord; uuid: string; timestamp: string } {
  const uuid = recordUuid()
  const timestamp = isoTimestamp()
  const serialized = serializeRecord(
    { uuid, parentUuid, sessionIdJson, timestamp, type: RECOVERED_RECORD_TYPE },
    { reason: 'torn-tail', tornOffset: torn.offset, tornLength: torn.length },
    undefined,
  )
  return { serialized, uuid, timestamp }
}
