import { open, stat, type FileHandle } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SessionRecord } from '../record-format.js'
import { parseLine, tornTailProblem, type LineSink } from '../read/parse-line.js'
import type { ReadProblem } from '../read/problem.js'
import type { CliIo } from './cli-io.js'
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

interface Entry {
  readonly toErr: boolean
  readonly text: string
}

/**
 * Prints the last `count` records of a transcript and, with `follow`, every record appended afterwards.
 * A partial last line is a write in progress: it is printed once its newline arrives. A truncated or
 * replaced file (a repair) is announced on stderr and followed from its new end.
 */
export async function followFile(filePath: string, options: FollowOptions, io: CliIo): Promise<void> {
  let handle: FileHandle = await open(filePath, 'r')
  let inode = (await handle.stat()).ino
  let offset = 0
  let lineNumber = 0
  let partial: Buffer[] = []
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
    record: (record: SessionRecord, line: number) =>
      emit({
        toErr: false,
        text: options.json ? `${JSON.stringify(record)}\n` : `${line}: ${formatRecordLine(record)}\n`,
      }),
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
        offset += bytesRead
        let start = 0
        let newline: number
        const chunk = buffer.subarray(0, bytesRead)
        while ((newline = chunk.indexOf(NEWLINE, start)) !== -1) {
          partial.push(chunk.subarray(start, newline))
          const text = Buffer.concat(partial).toString('utf8')
          partial = []
          parseLine(text, ++lineNumber, sink)
          start = newline + 1
        }
        // Copy: `buffer` is reused by the next read.
        if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)))
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
        io.err(
          `sessiontape tail: ${filePath} was replaced (repaired?); following the new file from its end\n`,
        )
        await handle.close()
        handle = await open(filePath, 'r')
        inode = (await handle.stat()).ino
        offset = now.size
        partial = []
      } else if (now.size < offset) {
        io.err(`sessiontape tail: ${filePath} was truncated to ${now.size} bytes; following from there\n`)
        offset = now.size
        partial = []
      }
    }
  } finally {
    await handle.close()
  }
}
