import type { SessionRecord } from '../record-format.js'
import { checkLinks } from './check-links.js'
import { checkSignal } from './describe-value.js'
import { lineBatches, type LineTail } from './line-batches.js'
import { overlongLineProblem, parseLine, tornTailProblem, type LineSink } from './parse-line.js'
import type { ReadProblem } from './problem.js'

export interface ReadSessionResult {
  /** Every valid record, in file order, unknown `type`s included. */
  readonly records: SessionRecord[]
  /** `lines[i]` is the 1-based line number `records[i]` was read from. */
  readonly lines: number[]
  /** Everything that was wrong, sorted by line; never thrown, never skipped silently. */
  readonly problems: ReadProblem[]
  /** uuid of the last valid record (what a resumed session continues from), or null for none. */
  readonly lastUuid: string | null
}

export interface ReadSessionOptions {
  /** Stops the read between chunks; the promise then rejects with the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /** @internal Test seam: lines longer than this are skipped unread (default: the longest decodable line). */
  readonly maxLineBytes?: number
}

/**
 * Reads a whole transcript tolerantly. Rejects only when the file cannot be read at all (missing, a
 * directory, no permission); damage inside the file becomes `problems`.
 */
export async function readSession(
  filePath: string,
  options: ReadSessionOptions = {},
): Promise<ReadSessionResult> {
  const signal = checkSignal(options?.signal)
  const records: SessionRecord[] = []
  const lines: number[] = []
  const problems: ReadProblem[] = []
  const sink: LineSink = {
    record(record, line) {
      records.push(record)
      lines.push(line)
    },
    problem: (problem) => problems.push(problem),
  }
  let tail: LineTail | undefined
  for await (const { lines: batch, firstLine } of lineBatches(filePath, {
    onTail: (found) => (tail = found),
    onOverlong: (line, bytes, terminated) => problems.push(overlongLineProblem(line, bytes, terminated)),
    signal,
    maxLineBytes: options?.maxLineBytes,
  })) {
    for (let i = 0; i < batch.length; i++) parseLine(batch[i]!, firstLine + i, sink)
  }
  if (tail !== undefined) problems.push(tornTailProblem(tail.text, tail.line))
  problems.push(...checkLinks(records, lines))
  // Stable sort: on one line, reading problems come before link problems.
  problems.sort((a, b) => a.line - b.line)
  return { records, lines, problems, lastUuid: records.at(-1)?.uuid ?? null }
}
