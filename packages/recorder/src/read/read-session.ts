import type { SessionRecord } from '../record-format.js'
import { classifiedLines } from './classified-lines.js'
import { checkSignal } from './describe-value.js'
import { LinkIndex } from './link-index.js'
import type { ReadProblem } from './problem.js'
import type { RecoveredTornLine } from './recovered-line.js'

export interface ReadSessionResult {
  /** Every valid record, in file order, unknown `type`s included. */
  readonly records: SessionRecord[]
  /** `lines[i]` is the 1-based line number `records[i]` was read from. */
  readonly lines: number[]
  /** Everything that was wrong, sorted by line; never thrown, never skipped silently. */
  readonly problems: ReadProblem[]
  /**
   * Torn lines a later `recovered` record of the file names (a crash, explained by the resumed writer):
   * not damage, so not in `problems`. Sorted by line.
   */
  readonly recovered: RecoveredTornLine[]
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
  const recovered: RecoveredTornLine[] = []
  const links = new LinkIndex((problem) => problems.push(problem))
  for await (const batch of classifiedLines(filePath, { signal, maxLineBytes: options?.maxLineBytes })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) recovered.push(entry.recovered)
      for (const problem of entry.problems) problems.push(problem)
      for (const record of entry.records) {
        records.push(record)
        lines.push(entry.line)
        links.add(record.uuid, record.parentUuid, entry.line)
      }
    }
  }
  links.finish()
  // Stable sort: on one line, reading problems come before link problems.
  problems.sort((a, b) => a.line - b.line)
  return { records, lines, problems, recovered, lastUuid: records.at(-1)?.uuid ?? null }
}
