import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

import { SessiontapeError } from '../../errors.js'
import { hasEnvelope } from '../../format/envelope.js'
import { NEWLINE, type SessionRecord } from '../../format/record-format.js'
import { parseLine, type LineSink } from '../../format/parse-line.js'
import { rejectUnknownOptions } from '../../util/unknown-options.js'

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
    fd = openRegularSync(filePath)
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

/**
 * Read-only, without blocking: `O_NONBLOCK` so a FIFO planted at the path cannot block the open (or a read),
 * and anything but a regular file is refused with `ERR_NOT_A_FILE` (a {@link SessiontapeError}).
 */
export function openRegularSync(filePath: string): number {
  const fd = openSync(filePath, constants.O_RDONLY | constants.O_NONBLOCK)
  let stats: Stats
  try {
    stats = fstatSync(fd)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  if (stats.isFile()) return fd
  closeSync(fd)
  // A directory fails as reading one always did (EISDIR), so callers that name it keep their message.
  if (stats.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${filePath}'`), {
      code: 'EISDIR',
      syscall: 'read',
      path: filePath,
    })
  throw notARegularFile(filePath)
}

/** `ERR_NOT_A_FILE`: a FIFO, socket, device or directory where a transcript is expected. */
export function notARegularFile(filePath: string): SessiontapeError {
  return new SessiontapeError(
    'ERR_NOT_A_FILE',
    `${filePath} is not a regular file (a FIFO, a socket, a device or a directory); it is neither read nor written as a transcript`,
  )
}

/** Lines up to this long are parsed to tell a record; a longer one is told by its envelope and its end. */
const PARSE_LIMIT = 64 * 1024 * 1024
const ENVELOPE_PREFIX_BYTES = 64 * 1024
const ENVELOPE =
  /^\{"uuid":("[^"\\]+"),"parentUuid":(null|"(?:[^"\\]|\\.)*"),"sessionId":("(?:[^"\\]|\\.)*"),"timestamp":("[^"\\]*"),"type":("(?:[^"\\]|\\.)*"),"v":(\d{1,9})[,}]/

/**
 * The last record of the file, however far back it starts: {@link inspectTailSync} with no bound, for a
 * resume whose bounded look found no record (a last record or a torn tail longer than its window — the
 * recorder accepts records of hundreds of MB). It walks back line by line, reading 1 MiB chunks: a line
 * up to {@link PARSE_LIMIT} is parsed, a longer one (too long for one string) counts as a record when it
 * opens with a whole envelope and ends with `}`. The torn tail is everything after that record.
 */
export function inspectWholeTailSync(filePath: string): TailInspection {
  const fd = openRegularSync(filePath)
  try {
    const size = fstatSync(fd).size
    // A last line lacking its newline is torn, whatever it holds: only a complete line is taken here.
    let lineEnd = lastNewlineEnd(fd, size)
    while (lineEnd > 0) {
      const lineStart = lastNewlineEnd(fd, lineEnd - 1)
      const record = recordOfLine(fd, lineStart, lineEnd - 1)
      if (record !== null) {
        return {
          exists: true,
          size,
          validLength: lineEnd,
          lastRecord: record,
          tornBytes: size - lineEnd,
          reachedStart: true,
        }
      }
      lineEnd = lineStart
    }
    return { exists: true, size, validLength: 0, lastRecord: null, tornBytes: size, reachedStart: true }
  } finally {
    closeSync(fd)
  }
}

/** The record held by the line `[start, end)` (without its newline), or null. */
function recordOfLine(fd: number, start: number, end: number): SessionRecord | null {
  if (end - start <= PARSE_LIMIT) {
    const sink = new LastRecordSink()
    parseLine(readAt(fd, start, end - start).toString('utf8'), 0, sink)
    return sink.last
  }
  if (readAt(fd, end - 1, 1)[0] !== 0x7d) return null
  const match = ENVELOPE.exec(readAt(fd, start, ENVELOPE_PREFIX_BYTES).toString('utf8'))
  if (match === null) return null
  try {
    const record: Record<string, unknown> = {
      uuid: JSON.parse(match[1]!) as unknown,
      parentUuid: JSON.parse(match[2]!) as unknown,
      sessionId: JSON.parse(match[3]!) as unknown,
      timestamp: JSON.parse(match[4]!) as unknown,
      type: JSON.parse(match[5]!) as unknown,
      v: Number(match[6]),
    }
    return hasEnvelope(record) ? record : null
  } catch {
    // An escape in the envelope that is not JSON: not a record.
    return null
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
