import * as io from '../loop/io.js'
import type { PresentAt, PresentRecords } from './present-records.js'
import { NEWLINE } from '../../format/record-format.js'

/**
 * Bounded reads of a transcript the write core needs when the file at the path is not what it expected:
 * which record does it end with, where does a given record end, whose session is it. Each reads at most
 * {@link SCAN_LIMIT} bytes, whatever the size of the file.
 */

// How far back a scan looks before it gives up: far more than the bytes written between two path checks
// in any realistic session, and a fixed cost in the rare event (a replaced transcript) that needs it.
const SCAN_LIMIT = 64 * 1024 * 1024
const WINDOW = 64 * 1024
const CHUNK = 1024 * 1024
const UUID_AT_LINE_START = /^\{"uuid":"([^"\\]{1,200})"/
// Enough of a line's first bytes for its uuid, counting lines from the start.
export const LINE_HEAD_BYTES = 64
const CLOSING_BRACE = 0x7d

/**
 * The uuid of a complete line that is a record: it starts with our envelope's uuid and ends as a JSON object
 * does. A record cut by a truncation and then ended by someone's newline (ours, closing the torn line, or a
 * partial line appended to it) starts like a record but is none: counted as one, it would make a cut's
 * loss count short and a carry start after a record the copy holds only in part.
 */
export function recordUuidOf(head: string, lastByte: number | undefined): string | null {
  if (lastByte !== CLOSING_BRACE) return null
  return UUID_AT_LINE_START.exec(head)?.[1] ?? null
}
// The session id of our envelope's first line (session ids are validated: no escapes in them).

/**
 * Calls `visit` with the uuid and end of each complete line of the file open as `fd`, from the last
 * complete line before `size` back towards the start, until `visit` returns true or the read back passes
 * {@link SCAN_LIMIT}; `uuid` is null for a line that is not a record (a torn line, someone else's line).
 * Returns how it ended: `found` (visit said so), `start` (the file's first line was visited) or `limit`.
 */
function* linesBackFrom(
  fd: number,
  size: number,
  visit: (uuid: string | null, lineEnd: number) => boolean,
): io.Io<'found' | 'start' | 'limit'> {
  let window = Math.min(WINDOW, size)
  let visitedDownTo = size
  for (;;) {
    const from = size - window
    const buffer = Buffer.allocUnsafe(window)
    const got = yield* readFully(fd, buffer, from)
    const bytes = buffer.subarray(0, got)
    // Lines are taken from the last newline back; bytes after it are a torn line, not a record. A line is
    // complete when the byte before it is a newline, or it starts the file.
    let lineEnd = bytes.lastIndexOf(NEWLINE)
    while (lineEnd !== -1) {
      const previous = lineEnd > 0 ? bytes.lastIndexOf(NEWLINE, lineEnd - 1) : -1
      if (previous === -1 && from !== 0) break
      // Lines visited by a smaller window are not visited twice.
      if (from + lineEnd + 1 <= visitedDownTo) {
        const line = bytes.toString('utf8', previous + 1, Math.min(lineEnd, previous + 1 + 256))
        const last = lineEnd > previous + 1 ? bytes[lineEnd - 1] : undefined
        if (visit(recordUuidOf(line, last), from + lineEnd + 1)) return 'found'
        visitedDownTo = from + previous + 1
      }
      lineEnd = previous
    }
    if (from === 0) return 'start'
    if (window >= SCAN_LIMIT) return 'limit'
    window = Math.min(window * 4, size, SCAN_LIMIT)
  }
}

/**
 * uuids of the last records of the file open as `fd` (`size` bytes), latest first, at most `max` of them.
 * Lines that are not records (a torn line, a line someone added after the last record) are skipped: a copy
 * of the transcript with one trailing non-record line still ends with its last record.
 */
export function* lastUuidsOf(fd: number, size: number, max: number): io.Io<string[]> {
  return (yield* lastRecordsOf(fd, size, max)).uuids
}

/** As {@link lastUuidsOf}; `all`: they are all the records the file holds (read back to its start). */
export function* lastRecordsOf(
  fd: number,
  size: number,
  max: number,
): io.Io<{ uuids: string[]; all: boolean }> {
  const uuids: string[] = []
  if (size === 0) return { uuids, all: true }
  const ended = yield* linesBackFrom(fd, size, (uuid) => {
    if (uuid !== null) uuids.push(uuid)
    return uuids.length >= max
  })
  return { uuids, all: ended === 'start' }
}

/** uuid of the last record of the file open as `fd` (`size` bytes), or null if none is found. */
export function* lastUuidOf(fd: number, size: number): io.Io<string | null> {
  return (yield* lastUuidsOf(fd, size, 1))[0] ?? null
}

/**
 * End of the last line of the file open as `fd` (before `end`) that is the record of one of `uuids`;
 * `none` when the file holds none of them (read back to its start), null when none is within
 * {@link SCAN_LIMIT} bytes back.
 */
export function* lastLineEndOfAny(
  fd: number,
  uuids: ReadonlySet<string>,
  end: number,
): io.Io<number | 'none' | null> {
  const found = { lineEnd: null as number | null }
  const ended = yield* linesBackFrom(fd, end, (uuid, lineEnd) => {
    if (uuid === null || !uuids.has(uuid)) return false
    found.lineEnd = lineEnd
    return true
  })
  return found.lineEnd ?? (ended === 'start' ? 'none' : null)
}

/**
 * How many of our records the file open as `fd` holds in its first `size` bytes: read back line by line
 * to the nearest record `records` knows the count of (the last record of one of our writes), counting the
 * records on the way.
 */
export function* presentUpTo(fd: number, size: number, records: PresentRecords): io.Io<PresentAt> {
  if (size === 0) return { present: 0, count: 0, exact: true }
  if (size <= SCAN_LIMIT) return yield* countFromStart(fd, size, records)
  let counted = 0
  const found = { at: null as PresentAt | null }
  const ended = yield* linesBackFrom(fd, size, (uuid) => {
    if (uuid === null) return false
    const known = records.known(uuid)
    if (known === null) {
      counted++
      return false
    }
    found.at = { present: known.present + counted, count: known.count + counted, exact: true }
    return true
  })
  if (found.at !== null) return found.at
  // Read back to the start without meeting a record we know: every record counted is ours if the file
  // held none before ours; otherwise (a cut below where ours begin, a read back cut short) a lower bound.
  if (ended === 'start' && records.startsWithOurs) return { present: counted, count: 0, exact: true }
  return { present: ended === 'start' ? 0 : counted, count: 0, exact: false }
}

/**
 * Searches the file open as `fd` backwards from `end` for the line of the record `uuid`, and returns the
 * offset just after that line's newline, or null if it is not within {@link SCAN_LIMIT} bytes.
 */
export function* findLineEndAfterUuid(fd: number, uuid: string, end: number): io.Io<number | null> {
  const needle = Buffer.from(`{"uuid":"${uuid}"`)
  const stop = Math.max(0, end - SCAN_LIMIT)
  let to = end
  while (to > stop) {
    // Each chunk overlaps the next by the needle's length (plus the byte before it), so no match is split.
    const from = Math.max(stop, to - CHUNK)
    const readFrom = Math.max(0, from - 1)
    const buffer = Buffer.allocUnsafe(Math.min(to + needle.length, end) - readFrom)
    const got = yield* readFully(fd, buffer, readFrom)
    const bytes = buffer.subarray(0, got)
    let at = bytes.lastIndexOf(needle)
    while (at !== -1) {
      const position = readFrom + at
      if (position >= from && position < to && (position === 0 || bytes[at - 1] === NEWLINE)) {
        return yield* lineEndFrom(fd, position + needle.length, end)
      }
      at = at > 0 ? bytes.lastIndexOf(needle, at - 1) : -1
    }
    to = from
  }
  return null
}

/**
 * The records of ours in the first `size` bytes of the file open as `fd`, counted line by line from its
 * start (the records before `records.base`, a resumed session's, are not ours to count).
 */
function* countFromStart(fd: number, size: number, records: PresentRecords): io.Io<PresentAt> {
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size))
  let present = 0
  // The last record whose count we know, and the records counted since: for the watermarks.
  let count = 0
  // The first bytes of the line being read (it may start in an earlier chunk), and its last byte so far.
  let head = Buffer.alloc(0)
  let last: number | undefined
  for (let at = 0; at < size;) {
    const got = yield* io.read(fd, buffer, 0, Math.min(buffer.length, size - at), at)
    if (got === 0) break
    const bytes = buffer.subarray(0, got)
    for (let start = 0; ;) {
      const newline = bytes.indexOf(NEWLINE, start)
      const end = newline === -1 ? bytes.length : newline
      if (head.length < LINE_HEAD_BYTES) {
        head = Buffer.concat([
          head,
          bytes.subarray(start, Math.min(end, start + LINE_HEAD_BYTES - head.length)),
        ])
      }
      if (end > start) last = bytes[end - 1]
      if (newline === -1) break
      const uuid = recordUuidOf(head.toString('latin1'), last)
      last = undefined
      if (uuid !== null) {
        present++
        count++
        if (uuid === records.base) present = count = 0
        const known = records.known(uuid)
        if (known !== null) count = known.count
      }
      head = Buffer.alloc(0)
      start = newline + 1
    }
    at += got
  }
  return { present, count, exact: true }
}

/**
 * Where the line holding the byte before `position` starts in the file open as `fd`: just after the last
 * newline before `position`, or 0; null when none is within {@link SCAN_LIMIT} bytes back.
 */
export function* lineStartBefore(fd: number, position: number): io.Io<number | null> {
  const stop = Math.max(0, position - SCAN_LIMIT)
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(position - stop, 1)))
  for (let to = position; to > stop;) {
    const from = Math.max(stop, to - buffer.length)
    const got = yield* readFully(fd, buffer.subarray(0, to - from), from)
    const newline = buffer.subarray(0, got).lastIndexOf(NEWLINE)
    if (newline !== -1) return from + newline + 1
    to = from
  }
  return stop === 0 ? 0 : null
}

/**
 * The record the file open as `fd` (`size` bytes) ends with when its last line lost only its newline (a cut
 * through it), found whole in the file open as `other` (before `otherEnd`): where that record's line ends
 * there, else null. Whole means byte for byte the line `other` holds, so a line cut anywhere else, even
 * just after a `}` inside it, is not taken for the record.
 */
export function* lineEndOfRecordMissingItsNewline(
  fd: number,
  size: number,
  other: number,
  otherEnd: number,
): io.Io<number | null> {
  const start = yield* lineStartBefore(fd, size)
  if (start === null || start === size) return null
  const head = yield* bytesAt(fd, start, Math.min(LINE_HEAD_BYTES, size - start))
  const uuid = recordUuidOf(head.toString('latin1'), (yield* bytesAt(fd, size - 1, 1))[0])
  if (uuid === null) return null
  const lineEnd = yield* findLineEndAfterUuid(other, uuid, otherEnd)
  if (lineEnd === null) return null
  // That line, as long as this one (plus its newline): it starts just after a newline, or the file.
  const lineStart = lineEnd - 1 - (size - start)
  if (lineStart < 0 || (lineStart > 0 && (yield* bytesAt(other, lineStart - 1, 1))[0] !== NEWLINE))
    return null
  return (yield* sameBytes(fd, start, other, lineStart, size - start)) ? lineEnd : null
}

/** Whether `length` bytes at `at` in `fd` equal those at `otherAt` in `other` (read a chunk at a time). */
function* sameBytes(fd: number, at: number, other: number, otherAt: number, length: number): io.Io<boolean> {
  for (let done = 0; done < length; done += CHUNK) {
    const want = Math.min(CHUNK, length - done)
    const mine = yield* bytesAt(fd, at + done, want)
    const theirs = yield* bytesAt(other, otherAt + done, want)
    if (mine.length !== want || !mine.equals(theirs)) return false
  }
  return true
}

/** Offset just after the first newline at or after `position` (before `end`), or null. */
export function* lineEndFrom(fd: number, position: number, end: number): io.Io<number | null> {
  let at = position
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(end - position, 1)))
  while (at < end) {
    const got = yield* io.read(fd, buffer, 0, Math.min(buffer.length, end - at), at)
    if (got === 0) return null
    const index = buffer.subarray(0, got).indexOf(NEWLINE)
    if (index !== -1) return at + index + 1
    at += got
  }
  return null
}

/** Reads `buffer.length` bytes at `position` (fewer only at the end of the file); returns how many. */
export function* readFully(fd: number, buffer: Buffer, position: number): io.Io<number> {
  let filled = 0
  while (filled < buffer.length) {
    const got = yield* io.read(fd, buffer, filled, buffer.length - filled, position + filled)
    if (got === 0) break
    filled += got
  }
  return filled
}

/** The `length` bytes at `position` (fewer at the end of the file). */
export function* bytesAt(fd: number, position: number, length: number): io.Io<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(length, 0))
  const got = yield* readFully(fd, buffer, position)
  return buffer.subarray(0, got)
}

/**
 * Where the first occurrence of `bytes` in the file open as `fd`, searched from `from` up to `end`, ends, or
 * null. Reads in chunks that overlap by `bytes.length - 1`, so an occurrence across two chunks is found.
 */
export function* endOfFirst(fd: number, bytes: Buffer, from: number, end: number): io.Io<number | null> {
  if (bytes.length === 0 || end - from < bytes.length) return null
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, end - from))
  let at = from
  while (end - at >= bytes.length) {
    const got = yield* readFully(fd, buffer.subarray(0, Math.min(buffer.length, end - at)), at)
    if (got < bytes.length) return null
    const index = buffer.subarray(0, got).indexOf(bytes)
    if (index !== -1) return at + index + bytes.length
    at += got - bytes.length + 1
  }
  return null
}
