import type { SessionRecord } from '../record-format.js'
import { lineBatches, type LineTail } from './line-batches.js'
import { overlongLineProblem, parseLine, tornTailProblem, type LineSink } from './parse-line.js'
import type { ReadProblem } from './problem.js'
import { checkSignal, describeValue } from './describe-value.js'

export interface StreamRecordsOptions {
  /**
   * Called for every line-level problem (everything but `orphan`, `duplicate-uuid` and `cycle`, which
   * need the whole file: use `readSession` for those). Problems are never thrown.
   * @default undefined (problems are not reported)
   */
  readonly onProblem?: (problem: ReadProblem) => void
  /** Stops the read between chunks; the iterator then throws the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /** @internal Test seam: lines longer than this are skipped unread (default: the longest decodable line). */
  readonly maxLineBytes?: number
}

/**
 * Yields the valid records of a transcript in file order, reading it in chunks: memory stays flat however
 * large the file is (one read chunk plus the longest line). Breaking out of the loop closes the file.
 */
export function streamRecords(
  filePath: string,
  options: StreamRecordsOptions = {},
): AsyncGenerator<SessionRecord, void, undefined> {
  // Validated here, not inside the generator, so misuse throws at the call rather than at the first next().
  const onProblem = checkOnProblem(options?.onProblem)
  return generate(filePath, onProblem, checkSignal(options?.signal), options?.maxLineBytes)
}

async function* generate(
  filePath: string,
  onProblem: (problem: ReadProblem) => void,
  signal: AbortSignal | undefined,
  maxLineBytes: number | undefined,
): AsyncGenerator<SessionRecord, void, undefined> {
  const collected: SessionRecord[] = []
  const sink: LineSink = {
    record: (record) => collected.push(record),
    problem: onProblem,
  }
  let tail: LineTail | undefined
  const batches = lineBatches(filePath, {
    onTail: (found) => (tail = found),
    onOverlong: (line, bytes, terminated) => onProblem(overlongLineProblem(line, bytes, terminated)),
    signal,
    maxLineBytes,
  })
  for await (const batch of batches) {
    const { lines, firstLine } = batch
    for (let i = 0; i < lines.length; i++) parseLine(lines[i]!, firstLine + i, sink)
    for (const record of collected) yield record
    collected.length = 0
  }
  if (tail !== undefined) onProblem(tornTailProblem(tail.text, tail.line))
}

function checkOnProblem(given: unknown): (problem: ReadProblem) => void {
  if (given === undefined) return () => {}
  if (typeof given !== 'function') {
    throw new TypeError(
      `Expected \`onProblem\` to be a function, got \`${describeValue(given)}\` (${typeof given})`,
    )
  }
  return given as (problem: ReadProblem) => void
}
