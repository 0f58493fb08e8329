import type { SessionRecord } from '../record-format.js'
import { classifiedLines } from './classified-lines.js'
import { checkSignal, describeValue } from './describe-value.js'
import type { ReadProblem } from './problem.js'
import type { RecoveredTornLine } from './recovered-line.js'

export interface StreamRecordsOptions {
  /**
   * Called for every line-level problem (everything but `orphan`, `duplicate-uuid` and `cycle`, which
   * need the whole file: use `readSession` for those). Problems are never thrown. A damaged line is
   * reported once the next record (or the end of the file) shows it is not a torn line a `recovered`
   * record names.
   * @default undefined (problems are not reported)
   */
  readonly onProblem?: (problem: ReadProblem) => void
  /** Called for each torn line that a later `recovered` record names (not damage). @default undefined */
  readonly onRecovered?: (line: RecoveredTornLine) => void
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
  const onProblem = checkCallback('onProblem', options?.onProblem)
  const onRecovered = checkCallback('onRecovered', options?.onRecovered)
  return generate(filePath, onProblem, onRecovered, checkSignal(options?.signal), options?.maxLineBytes)
}

async function* generate(
  filePath: string,
  onProblem: (problem: ReadProblem) => void,
  onRecovered: (line: RecoveredTornLine) => void,
  signal: AbortSignal | undefined,
  maxLineBytes: number | undefined,
): AsyncGenerator<SessionRecord, void, undefined> {
  for await (const batch of classifiedLines(filePath, { signal, maxLineBytes })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) onRecovered(entry.recovered)
      for (const problem of entry.problems) onProblem(problem)
      for (const record of entry.records) yield record
    }
  }
}

function checkCallback<T>(name: string, given: unknown): (value: T) => void {
  if (given === undefined) return () => {}
  if (typeof given !== 'function') {
    throw new TypeError(
      `Expected \`${name}\` to be a function, got \`${describeValue(given)}\` (${typeof given})`,
    )
  }
  return given as (value: T) => void
}
