import { type RecorderError, RecorderErrorCode } from '../../errors.js'
import {
  bytesAt,
  lastLineEndOfAny,
  LINE_HEAD_BYTES,
  lastRecordsOf,
  lineEndFrom,
  lineEndOfRecordMissingItsNewline,
  lineStartBefore,
  recordUuidOf,
} from './file-scan.js'
import * as io from '../loop/io.js'
import { NEWLINE } from '../../format/record-format.js'

/**
 * Bytes written to a transcript that was then deleted, renamed or replaced, since the path was last found
 * to name it: they are copied into the file now at the path before anything else goes there. The old
 * descriptor stays open for that (the only place those bytes are left); the transcript owns it.
 */
export interface Carry {
  readonly fd: number
  /** Where the copy starts: a line boundary of the old file. */
  start: number
  readonly end: number
  /** Bytes already copied into the current transcript. */
  copied: number
  /** The first bytes of the line being copied (it starts at a line boundary): is it a record, whose? */
  lineHead: Buffer
  /** The last byte of that line copied so far (a record ends with `}`). */
  lineLast?: number | undefined
  /** The old file ended inside a line that is not ours (cut by a truncation): the file goes on after a newline. */
  readonly torn: boolean
  /**
   * Bytes someone appended around our last write (an unfinished line just before it, glued to it; more
   * after it, before we looked again): never copied. In file order.
   */
  readonly skip?: readonly Skip[] | undefined
}

/** A byte range of the old file that is not ours. */
export interface Skip {
  readonly from: number
  readonly to: number
}

// Records of the new file (from its end) looked for in the old one: a copy taken before the old file was
// truncated may end with records the old file no longer holds, and the latest one it does hold is where
// the old file goes on. One bounded read back of the old file looks for all of them at once.
const PLAN_CANDIDATES = 4096
// Read-back buffer when carrying bytes from a replaced transcript into its successor.
const CARRY_CHUNK = 1024 * 1024
const EMPTY = Buffer.alloc(0)

/**
 * The file now at the path already holds records (a copy of the old one put in its place, say): the carry
 * starts right after the last of them the old file holds, so no record is written twice, whatever was
 * verified when. An empty file someone put there (`created` false: not made by our open of a free path)
 * is a copy from before the first record: it lacks everything, and everything is carried. So is a file
 * whose records the old file holds none of (a copy of the file the old one replaced, put back after it): read
 * whole, both of them, to be sure of it.
 */
export function* planCarry(carry: Carry, fd: number, size: number, created: boolean): io.Io<void> {
  carry.copied = 0
  carry.lineHead = EMPTY
  carry.lineLast = undefined
  if (size === 0) {
    if (!created) carry.start = 0
    return
  }
  // The file's last line may be a record of the old file that lost only its newline (a copy of the file
  // taken just after a cut through that newline, which our next write ended again): it holds that record.
  const wholeAtEnd = yield* lineEndOfRecordMissingItsNewline(fd, size, carry.fd, carry.end)
  if (wholeAtEnd !== null) {
    carry.start = Math.min(wholeAtEnd, carry.end)
    return
  }
  const held = yield* lastRecordsOf(fd, size, PLAN_CANDIDATES)
  if (held.uuids.length === 0) return
  const lineEnd = yield* lastLineEndOfAny(carry.fd, new Set(held.uuids), carry.end)
  if (typeof lineEnd === 'number') carry.start = Math.min(lineEnd, carry.end)
  else if (lineEnd === 'none' && held.all && held.uuids.length < PLAN_CANDIDATES) carry.start = 0
}

/**
 * Reads the carried bytes back from the old file and hands them to `append`, in chunks; `record` hears of
 * each record carried (by uuid: it is at the path again).
 */
export function* copyCarry(
  carry: Carry,
  append: (buffer: Uint8Array, from: number, progress: (bytes: number) => void) => io.Io<void>,
  record: (uuid: string) => void,
  error: (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError,
): io.Io<void> {
  const length = carry.end - carry.start
  const buffer = Buffer.allocUnsafe(Math.min(CARRY_CHUNK, Math.max(length, 1)))
  const skips = carry.skip ?? []
  while (carry.copied < length) {
    const at = carry.start + carry.copied
    const inside = skips.find((skip) => at >= skip.from && at < skip.to)
    if (inside !== undefined) {
      carry.copied = Math.min(length, inside.to - carry.start)
      continue
    }
    const upTo = skips.find((skip) => skip.from > at)?.from ?? carry.end
    const want = Math.min(buffer.length, Math.min(upTo, carry.end) - at)
    let got: number
    try {
      got = yield* io.read(carry.fd, buffer, 0, want, at)
    } catch (cause) {
      throw error(RecorderErrorCode.WRITE_FAILED, 'could not read back the replaced transcript', cause)
    }
    // The old file shrank under our descriptor (someone truncated it too): carry what is there.
    if (got === 0) return
    // A newline the carry starts with ended someone's unfinished line (ours start lines of their own): it is
    // theirs, never carried. Copied to the start of a new file it would be an empty first line, and a file
    // whose first line is not a record of ours is never opened again (resume, a reopen). The file it goes
    // into gets its own newline first if it ends inside a line.
    if (at === carry.start && buffer[0] === NEWLINE) {
      carry.copied += 1
      continue
    }
    let counted = 0
    yield* append(buffer.subarray(0, got), 0, (written) => {
      findRecords(carry, buffer.subarray(counted, counted + written), record)
      counted += written
      carry.copied += written
    })
  }
}

/** Calls `record` for each record whose line ends in `bytes` (the next bytes copied). */
function findRecords(carry: Carry, bytes: Buffer, record: (uuid: string) => void): void {
  let start = 0
  for (;;) {
    const newline = bytes.indexOf(NEWLINE, start)
    const end = newline === -1 ? bytes.length : newline
    const missing = LINE_HEAD_BYTES - carry.lineHead.length
    if (missing > 0) {
      carry.lineHead = Buffer.concat([carry.lineHead, bytes.subarray(start, Math.min(end, start + missing))])
    }
    if (end > start) carry.lineLast = bytes[end - 1]
    if (newline === -1) return
    const uuid = recordUuidOf(carry.lineHead.toString('latin1'), carry.lineLast)
    if (uuid !== null) record(uuid)
    carry.lineHead = EMPTY
    carry.lineLast = undefined
    start = newline + 1
  }
}

/**
 * Our last write (`lastWrite.length` bytes ending at `ourEnd`, begun at a line start of ours) after someone's
 * bytes that did not end with a newline: its first record is glued to their line. The carry that writes it
 * again, from this same file, or null when nothing is glued. `theirsFrom`: where their bytes before our last
 * write begin, when they were appended between our writes (else, after a cut, the glued line's start is read
 * back); `size`: the file's size now, bytes after `ourEnd` being theirs too (appended after our last write).
 */
export function* gluedRecordCarry(
  fd: number,
  ourEnd: number,
  size: number,
  lastWrite: { readonly length: number; readonly lineStart: boolean },
  theirsFrom?: number,
  leaving = false,
): io.Io<Carry | null> {
  const start = ourEnd - lastWrite.length
  if (!lastWrite.lineStart || start <= 0) return null
  if ((yield* bytesAt(fd, start - 1, 1))[0] === NEWLINE) return null
  // No line end in it: the first slice of a record written in slices. At the path, the write cycle writes
  // that record again whole from its first character (its restart after a change between slices). A file
  // leaving the path is not restarted: the carry brings this slice to the next file, their bytes skipped,
  // and the next slices follow it there.
  const end = (yield* lineEndFrom(fd, start, ourEnd)) ?? (leaving ? ourEnd : null)
  if (end === null) return null
  // The unfinished lines before and after our last write: should this file leave the path, the carry from
  // it copies what is ours on either side of them, and never them (see carryOnLetGo). Before it: someone's
  // append (from `theirsFrom`), or what a cut left of a line (one of ours, counted lost with the cut).
  const before = theirsFrom ?? (yield* lineStartBefore(fd, start))
  const skip: Skip[] = []
  if (before !== null && before < start) skip.push({ from: before, to: start })
  if (ourEnd < size) skip.push({ from: ourEnd, to: size })
  return { fd, start, end, copied: 0, lineHead: EMPTY, torn: false, skip }
}

/**
 * The file open as `fd` just left the path (deleted, renamed, replaced): the carry that brings what the
 * path lacks of it, and a descriptor nothing needs any more (the caller closes it), or null.
 */
export function carryOnLetGo(
  previous: Carry | null,
  fd: number,
  file: { readonly verifiedLineEnd: number; readonly size: number; readonly torn: boolean },
): { carry: Carry; surplus: number | null } {
  if (previous !== null && previous.fd === fd) {
    // A glued record to write again from this file, which just left the path: what the path lacks of this
    // file is carried instead, from that record on (everything after it may be missing there too), and our
    // records before their line since the last check that found this file at the path (their line skipped).
    const start = Math.min(previous.start, file.verifiedLineEnd)
    return {
      carry: { ...previous, start, end: file.size, copied: 0, lineHead: EMPTY, lineLast: undefined },
      surplus: null,
    }
  }
  if (previous !== null) {
    // Replaced again before the carry was complete: the bytes to carry are still the older file's, and what
    // was copied so far went away with the file just replaced, so the copy starts over. The descriptor of
    // that intermediate file holds nothing we need.
    previous.copied = 0
    previous.lineHead = EMPTY
    previous.lineLast = undefined
    return { carry: previous, surplus: fd }
  }
  // Kept even when every byte was confirmed at the path: the file put there may be an older copy, and what
  // it lacks (found by its last record) is read back from this descriptor.
  const carry = {
    fd,
    start: file.verifiedLineEnd,
    end: file.size,
    copied: 0,
    lineHead: EMPTY,
    torn: file.torn,
  }
  return { carry, surplus: null }
}
