import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import type { SessionRecord } from '../format/record-format.js'
import { parseLine, type LineSink } from '../format/parse-line.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

/** What the end of a transcript looks like, as {@link inspectTailSync} found it. */
export interface TailInspection {
  /** False when there is no file at the path (then every other figure is 0 / null). */
  readonly exists: boolean
  /** File size in bytes when inspected. */
  readonly size: number
  /**
   * Byte length of the part to keep: the end of the last line that holds a valid record (newline-terminated,
   * or the file's last line when it is a whole record that lacks only its newline). Everything after it is
   * the torn tail.
   */
  readonly validLength: number
  /** The last valid record (the one a resumed session continues from), or null if none was found. */
  readonly lastRecord: SessionRecord | null
  /** `size - validLength`: partial line, trailing NUL run, garbage lines after the last valid record. */
  readonly tornBytes: number
  /**
   * True when the search reached the start of the file. False only when `maxBytes` stopped the search
   * before any valid record was found; then `validLength` keeps every complete line and only the bytes
   * after the last newline count as torn.
   */
  readonly reachedStart: boolean
}

export interface InspectTailOptions {
  /**
   * Upper bound on how many bytes are read from the end of the file. The window starts at 64 KiB and
   * grows ×4 only while no complete valid record has been found in it, so the cost depends on the size
   * of the last record, never on the size of the file.
   * @default 268435456 (256 MiB: larger than any sane single record)
   */
  readonly maxBytes?: number
}

/** First window: the last records of a chat transcript are almost always this small. */
const INITIAL_WINDOW = 64 * 1024
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
const GROWTH = 4
/** Chunk size when walking back for a newline after the search gave up. */
const NEWLINE_SCAN_CHUNK = 1024 * 1024
const NEWLINE = 0x0a

/**
 * Finds the last complete valid record of a transcript by reading a bounded window from its end, and how
 * many bytes after it are torn. Synchronous and read-only: a recorder calls it once while resuming.
 */
export function inspectTailSync(filePath: string, options: InspectTailOptions = {}): TailInspection {
  rejectUnknownOptions(options, ['maxBytes'], 'inspectTailSync()')
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  if (!(typeof maxBytes === 'number' && maxBytes >= 1 && Number.isFinite(maxBytes))) {
    throw new TypeError(
      `Expected \`maxBytes\` to be a positive finite number, got \`${String(maxBytes)}\` (${typeof maxBytes})`,
    )
  }
  let fd: number
  try {
    fd = openSync(filePath, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { exists: false, size: 0, validLength: 0, lastRecord: null, tornBytes: 0, reachedStart: true }
    }
    throw error
  }
  try {
    const size = fstatSync(fd).size
    let window = Math.min(INITIAL_WINDOW, size, maxBytes)
    for (;;) {
      const found = searchWindow(fd, size, window)
      if (found !== undefined)
        return { exists: true, size, ...found, tornBytes: size - found.validLength, reachedStart: true }
      if (window >= size) {
        return { exists: true, size, validLength: 0, lastRecord: null, tornBytes: size, reachedStart: true }
      }
      if (window >= maxBytes) break
      window = Math.min(window * GROWTH, size, maxBytes)
    }
    const validLength = lastNewlineEnd(fd, size)
    return {
      exists: true,
      size,
      validLength,
      lastRecord: null,
      tornBytes: size - validLength,
      reachedStart: false,
    }
  } finally {
    closeSync(fd)
  }
}

interface Found {
  readonly validLength: number
  readonly lastRecord: SessionRecord
}

/** Looks for the last valid record among the complete lines of the last `window` bytes. */
function searchWindow(fd: number, size: number, window: number): Found | undefined {
  const start = size - window
  // Read one byte before the window too: if it is a newline, the window's first line is complete.
  const from = start > 0 ? start - 1 : 0
  const buffer = readAt(fd, from, size - from)
  const firstLineStart = start > 0 ? buffer.indexOf(NEWLINE) + 1 : 0
  if (firstLineStart === 0 && start > 0) return undefined
  let lineEnd = buffer.lastIndexOf(NEWLINE)
  const sink = new LastRecordSink()
  // A last line that is a whole record and lacks only its newline (a crash between the two) is a record:
  // it is kept, and the writer that resumes ends it with the newline before appending.
  const partialStart = lineEnd + 1
  if (partialStart < buffer.length && (lineEnd !== -1 || start === 0) && partialStart >= firstLineStart) {
    if (parseLine(buffer.toString('utf8', partialStart), 0, sink) > 0 && sink.last !== null) {
      return { validLength: size, lastRecord: sink.last }
    }
  }
  while (lineEnd >= firstLineStart && lineEnd !== -1) {
    const previous = lineEnd > 0 ? buffer.lastIndexOf(NEWLINE, lineEnd - 1) : -1
    const lineStart = Math.max(previous + 1, firstLineStart)
    // Line numbers are unknown here (we did not read the start of the file); 0 marks "not counted".
    if (parseLine(buffer.toString('utf8', lineStart, lineEnd), 0, sink) > 0 && sink.last !== null) {
      return { validLength: from + lineEnd + 1, lastRecord: sink.last }
    }
    if (lineStart === firstLineStart) break
    lineEnd = previous
  }
  return undefined
}

class LastRecordSink implements LineSink {
  last: SessionRecord | null = null
  record(record: SessionRecord): void {
    this.last = record
  }
  problem(): void {
    // Problems in the tail are the caller's to quarantine, not to report; readSession reports them.
  }
}

/** End of the last newline in the file (0 if none), scanning back in chunks. */
function lastNewlineEnd(fd: number, size: number): number {
  let end = size
  while (end > 0) {
    const start = Math.max(0, end - NEWLINE_SCAN_CHUNK)
    const index = readAt(fd, start, end - start).lastIndexOf(NEWLINE)
    if (index !== -1) return start + index + 1
    end = start
  }
  return 0
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length)
  let filled = 0
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled)
    if (n === 0) break
    filled += n
  }
  return filled === length ? buffer : buffer.subarray(0, filled)
}
