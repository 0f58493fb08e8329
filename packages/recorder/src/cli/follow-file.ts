import { open, stat, type FileHandle } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SessionRecord } from '../record-format.js'
import { parseLine, tornTailProblem, type LineSink } from '../read/parse-line.js'
import type { ReadProblem } from '../read/problem.js'
import type { CliIo } from './cli-io.js'
import { findRecordLine } from './find-record-line.js'
import { formatProblem, formatRecordLine } from './format-record.js'

export interface FollowOptions {
  /** Keep watching for appended records until stopped. */
  readonly follow: boolean
  /** How many of the existing records (and problems) to print first. */
  readonly count: number
  readonly json: boolean
}

/** How often a followed file is checked for growth: fast enough to feel live, cheap enough to leave running. */
const POLL_MS = 200
const READ_CHUNK = 1024 * 1024
const NEWLINE = 0x0a
/**
 * How many of the last bytes read after the last record are kept to notice that they were rewritten
 * (a resume truncates a torn tail and appends in one go, so the file never looks shorter to a poll).
 */
const CHECK_BYTES = 4096

interface Entry {
  readonly toErr: boolean
  readonly text: string
}

/**
 * Prints the last `count` records of a transcript and, with `follow`, every record appended afterwards.
 * A partial last line is a write in progress: it is printed once its newline arrives. A truncated or
 * replaced file (a repair) is announced on stderr and followed from the last record seen (or its end).
 */
export async function followFile(filePath: string, options: FollowOptions, io: CliIo): Promise<void> {
  let handle: FileHandle = await open(filePath, 'r')
  let inode = (await handle.stat()).ino
  let offset = 0
  let lineNumber = 0
  let partial: Buffer[] = []
  // End of the last complete line that held a record, and its line number: where a torn-tail repair cuts.
  let validEnd = 0
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
  const sink: LineSink = {
    record: (record: SessionRecord, line: number) => {
      lastUuid = record.uuid
      emit({
        toErr: false,
        text: options.json ? `${JSON.stringify(record)}\n` : `${line}: ${formatRecordLine(record)}\n`,
      })
    },
    problem: (problem: ReadProblem) =>
      emit(
        options.json
          ? { toErr: true, text: `${JSON.stringify({ problem })}\n` }
          : { toErr: false, text: `${formatProblem(problem)}\n` },
      ),
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
          partial.push(chunk.subarray(start, newline))
          const text = Buffer.concat(partial).toString('utf8')
          partial = []
          if (parseLine(text, ++lineNumber, sink) > 0) {
            validEnd = chunkStart + newline + 1
            validLine = lineNumber
          }
          start = newline + 1
        }
        // Copies: `buffer` is reused by the next read.
        if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)))
        recent = Buffer.concat([recent, chunk.subarray(Math.max(0, bytesRead - CHECK_BYTES))])
        recent = Buffer.from(recent.subarray(Math.max(0, recent.length - CHECK_BYTES)))
        continue
      }
      if (!caughtUp) {
        caughtUp = true
        for (const entry of backlog.splice(0)) (entry.toErr ? io.err : io.out)(entry.text)
      }
      if (!options.follow) {
        const text = Buffer.concat(partial).toString('utf8')
        if (text.length > 0) sink.problem(tornTailProblem(text, lineNumber + 1))
        return
      }
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
          `sessiontape tail: ${filePath} was replaced (repaired?); following the new file from line ${from.line + 1}\n`,
        )
        offset = from.offset
        lineNumber = from.line
        partial = []
        validEnd = offset
        validLine = lineNumber
        recent = Buffer.alloc(0)
      } else if (
        now.size < offset ||
        (offset > validEnd && (await tailRewritten(handle, offset, validEnd, recent)))
      ) {
        if (now.size >= validEnd) {
          // What a resume does: the bytes after the last record were quarantined, new records follow.
          io.err(
            `sessiontape tail: the end of ${filePath} after line ${validLine} was rewritten (a resume repaired its torn tail?); reading it again from there\n`,
          )
          offset = validEnd
          lineNumber = validLine
        } else {
          io.err(`sessiontape tail: ${filePath} was truncated to ${now.size} bytes; following from there\n`)
          offset = now.size
          validEnd = offset
          validLine = lineNumber
        }
        partial = []
        recent = Buffer.alloc(0)
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
