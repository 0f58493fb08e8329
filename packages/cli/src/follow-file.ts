import { open, stat, type FileHandle } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { lineParserFor } from '@sessiontape/recorder/internal'
import type { SessionRecord, TranscriptFormat } from '@sessiontape/recorder'
import { stringifyJson } from '@sessiontape/recorder/internal'
import { TornLineTracker, type ClassifiedLine } from '@sessiontape/recorder/internal'
import { drained, styleOf, type CliIo } from './cli-io.js'
import { displayLine } from './display-text.js'
import { findRecordLine } from './find-record-line.js'
import { formatProblem, formatRecordLine, formatRecovered } from './format-record.js'
import { CLI_MAX_LINE_BYTES } from './limits.js'
import { tailStart } from './tail-start.js'

export interface FollowOptions {
  /** Keep watching for appended records until stopped. */
  readonly follow: boolean
  /** How many of the existing records (and problems) to print first. */
  readonly count: number
  readonly json: boolean
  /**
   * How lines are read (resolved; `gemini-json` is one document, not lines, and cannot be followed).
   * @default 'sessiontape'
   */
  readonly format?: TranscriptFormat
  /**
   * One record as a line of human output (no newline); `where` is its line number or `@<offset>`.
   * @default `<where>: <time> <type>: <text, cut at 100 characters>`
   */
  readonly recordLine?: (where: string, record: SessionRecord) => string
  /** @internal Test seam: lines longer than this are skipped unread. */
  readonly maxLineBytes?: number
}

/** How often a followed file is checked for growth: fast enough to feel live, cheap enough to leave running. */
const POLL_MS = 200
const READ_CHUNK = 1024 * 1024
const NEWLINE = 0x0a
/**
 * How many of the last bytes read after the last record are kept to notice that they were rewritten
 * (an older resume truncated a torn tail and appended in one go, so the file never looked shorter).
 */
const CHECK_BYTES = 4096

interface Entry {
  readonly toErr: boolean
  readonly text: string
}

/**
 * Prints the last `count` records of a transcript and, with `follow`, every record appended afterwards.
 * It starts reading near the end (see tailStart), so `tail -n 3` of a huge file reads only its end.
 * A partial last line is a write in progress: it is printed once its newline arrives. A line over the
 * CLI's limit is reported and skipped unread. Torn bytes that a later `recovered` record names are
 * printed as recovered. A truncated or replaced file is announced on stderr and followed from the last
 * record seen (or its end). Lines are numbered when the file was read from its start; otherwise records
 * and problems are labelled by byte offset (`@<offset>`), which stays true whatever happens before them.
 */
export async function followFile(filePath: string, options: FollowOptions, io: CliIo): Promise<void> {
  const style = styleOf(io)
  const recordLine =
    options.recordLine ??
    ((where: string, record: SessionRecord) => `${where}: ${formatRecordLine(record, style)}`)
  const maxLineBytes = options.maxLineBytes ?? CLI_MAX_LINE_BYTES
  const reader = lineParserFor(options.format ?? 'sessiontape', filePath)
  if (reader === undefined) throw new TypeError('followFile: a single JSON document has no lines to follow')
  const { parse, completeTail } = reader
  let handle: FileHandle = await open(filePath, 'r')
  const first = await handle.stat()
  let inode = first.ino
  let offset = await tailStart(handle, first.size, options.count)
  let lineKnown = offset === 0
  let lineNumber = 0
  // Bytes of the line being read (not yet terminated), and where it starts.
  let partial: Buffer[] = []
  let partialBytes = 0
  let partialStart = offset
  // True while skipping a line over the limit (its bytes are counted, not kept).
  let skipping = false
  // End of the last complete line that held a record, and its line number: where an old-style repair cut.
  let validEnd = offset
  let validLine = 0
  // The last bytes read (up to CHECK_BYTES, ending at `offset`), to tell an append from a rewrite.
  let recent = Buffer.alloc(0)
  // The last record read: where to pick up in a replaced file.
  let lastUuid: string | null = null
  let caughtUp = false
  const backlog: Entry[] = []
  const emit = (entry: Entry): void => {
    if (caughtUp) (entry.toErr ? io.err : io.out)(entry.text)
    else {
      backlog.push(entry)
      if (backlog.length > options.count) backlog.shift()
    }
  }
  const label = (line: number, at: number): string => (lineKnown ? `${line}` : `@${at}`)
  const print = (entry: ClassifiedLine<undefined>): void => {
    if (entry.recovered !== undefined) {
      emit(
        options.json
          ? { toErr: true, text: `${stringifyJson({ recovered: entry.recovered })}\n` }
          : { toErr: false, text: `${formatRecovered(entry.recovered, style, lineKnown)}\n` },
      )
    }
    for (const problem of entry.problems) {
      emit(
        options.json
          ? { toErr: true, text: `${stringifyJson({ problem })}\n` }
          : { toErr: false, text: `${formatProblem(problem, style, lineKnown)}\n` },
      )
    }
    for (const record of entry.records) {
      lastUuid = record.uuid
      emit({
        toErr: false,
        text: options.json
          ? `${stringifyJson(record)}\n`
          : `${recordLine(label(entry.line, entry.offset), record)}\n`,
      })
    }
    if (entry.records.length > 0) {
      validEnd = entry.offset + entry.length + 1
      validLine = entry.line
    }
  }
  let tracker = new TornLineTracker<undefined>(print, offset, parse, completeTail)
  const restart = (at: number, line: number, known: boolean): void => {
    offset = at
    lineNumber = line
    lineKnown = known
    partial = []
    partialBytes = 0
    partialStart = at
    skipping = false
    validEnd = at
    validLine = line
    recent = Buffer.alloc(0)
    tracker = new TornLineTracker<undefined>(print, at, parse, completeTail)
  }
  const buffer = Buffer.allocUnsafe(READ_CHUNK)
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, offset)
      if (bytesRead > 0) {
        const chunkStart = offset
        offset += bytesRead
        let start = 0
        let newline: number
        const chunk = buffer.subarray(0, bytesRead)
        while ((newline = chunk.indexOf(NEWLINE, start)) !== -1) {
          const length = partialBytes + newline - start
          const line = ++lineNumber
          if (skipping || length > maxLineBytes) tracker.overlong(line, partialStart, length, undefined)
          else {
            partial.push(chunk.subarray(start, newline))
            tracker.line(Buffer.concat(partial).toString('utf8'), line, partialStart, length, undefined)
          }
          partial = []
          partialBytes = 0
          skipping = false
          start = newline + 1
          partialStart = chunkStart + start
        }
        if (start < chunk.length) {
          partialBytes += chunk.length - start
          if (partialBytes > maxLineBytes) {
            // Too long to hold: count the rest of the line instead of keeping it.
            skipping = true
            partial = []
          } else if (!skipping) partial.push(Buffer.from(chunk.subarray(start))) // `buffer` is reused
        }
        recent = Buffer.concat([recent, chunk.subarray(Math.max(0, bytesRead - CHECK_BYTES))])
        recent = Buffer.from(recent.subarray(Math.max(0, recent.length - CHECK_BYTES)))
        continue
      }
      if (!caughtUp) {
        if (!options.follow) {
          const text = skipping ? '' : Buffer.concat(partial).toString('utf8')
          const tail =
            partialBytes === 0
              ? undefined
              : { text, line: lineNumber + 1, offset: partialStart, length: partialBytes, overlong: skipping }
          tracker.end(tail)
        }
        caughtUp = true
        for (const entry of backlog.splice(0)) (entry.toErr ? io.err : io.out)(entry.text)
        await drained(io)
      }
      if (!options.follow) return
      try {
        await sleep(POLL_MS, undefined, { signal: io.signal })
      } catch {
        // Aborted: the user stopped following (Ctrl-C). That is the normal end of `tail -f`.
        return
      }
      const now = await stat(filePath).catch(() => undefined)
      if (now === undefined) continue
      if (now.ino !== inode) {
        await handle.close()
        handle = await open(filePath, 'r')
        inode = (await handle.stat()).ino
        // Records appended between the replacement and this poll follow the last one printed: start there.
        // (A repair also renumbers lines: the new file's numbers are used from here on.)
        const from = await findRecordLine(filePath, lastUuid)
        io.err(
          `sessiontape tail: ${displayLine(filePath)} was replaced (repaired?); following the new file from line ${from.line + 1}\n`,
        )
        restart(from.offset, from.line, true)
      } else if (
        now.size < offset ||
        (offset > validEnd && (await tailRewritten(handle, offset, validEnd, recent)))
      ) {
        if (now.size >= validEnd) {
          // What an older resume did: the bytes after the last record were quarantined, new records follow.
          io.err(
            `sessiontape tail: the end of ${displayLine(filePath)} after ${lineKnown ? `line ${validLine}` : `byte ${validEnd}`} was rewritten (a resume repaired its torn tail?); reading it again from there\n`,
          )
          restart(validEnd, validLine, lineKnown)
        } else {
          // Lines before the cut may be gone too: from here on, positions are byte offsets.
          io.err(
            `sessiontape tail: ${displayLine(filePath)} was truncated to ${now.size} bytes; following from there\n`,
          )
          restart(now.size, lineNumber, false)
        }
      }
    }
  } finally {
    await handle.close()
  }
}

/** True when the bytes read after the last record (up to the last CHECK_BYTES of them) are no longer in the file. */
async function tailRewritten(
  handle: FileHandle,
  offset: number,
  validEnd: number,
  recent: Buffer,
): Promise<boolean> {
  const length = Math.min(offset - validEnd, recent.length)
  if (length === 0) return false
  const now = Buffer.alloc(length)
  const { bytesRead } = await handle.read(now, 0, length, offset - length)
  return bytesRead < length || !now.equals(recent.subarray(recent.length - length))
}
