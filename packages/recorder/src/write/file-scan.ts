import * as io from './io.js'

/**
 * Bounded reads of a transcript the write core needs when the file at the path is not what it expected:
 * which record does it end with, where does a given record end. Each reads at most
 * {@link SCAN_LIMIT} bytes, whatever the size of the file.
 */

const NEWLINE = 0x0a
// How far back a scan looks before it gives up: far more than the bytes written between two path checks
// in any realistic session, and a fixed cost in the rare event (a replaced transcript) that needs it.
const SCAN_LIMIT = 64 * 1024 * 1024
const WINDOW = 64 * 1024
const CHUNK = 1024 * 1024
const UUID_AT_LINE_START = /^\{"uuid":"([^"\\]{1,200})"/

/** uuid of the last complete line of the file open as `fd` (`size` bytes), or null if none is found. */
export function* lastUuidOf(fd: number, size: number): io.Io<string | null> {
  let window = Math.min(WINDOW, size)
  for (;;) {
    const from = size - window
    const buffer = Buffer.allocUnsafe(window)
    const got = yield* readFully(fd, buffer, from)
    const bytes = buffer.subarray(0, got)
    // The last complete line ends at the last newline; bytes after it are a torn line, not a record.
    const lastNewline = bytes.lastIndexOf(NEWLINE)
    if (lastNewline !== -1) {
      const previous = lastNewline > 0 ? bytes.lastIndexOf(NEWLINE, lastNewline - 1) : -1
      if (previous !== -1 || from === 0) {
        const line = bytes.toString('utf8', previous + 1, Math.min(lastNewline, previous + 1 + 256))
        return UUID_AT_LINE_START.exec(line)?.[1] ?? null
      }
    }
    if (window >= size || window >= SCAN_LIMIT) return null
    window = Math.min(window * 4, size, SCAN_LIMIT)
  }
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

/** Offset just after the first newline at or after `position` (before `end`), or null. */
function* lineEndFrom(fd: number, position: number, end: number): io.Io<number | null> {
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

function* readFully(fd: number, buffer: Buffer, position: number): io.Io<number> {
  let filled = 0
  while (filled < buffer.length) {
    const got = yield* io.read(fd, buffer, filled, buffer.length - filled, position + filled)
    if (got === 0) break
    filled += got
  }
  return filled
}
