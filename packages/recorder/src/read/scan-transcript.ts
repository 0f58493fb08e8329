import type { SessionRecord } from '../record-format.js'
import { classifiedLines } from './classified-lines.js'
import { LinkIndex } from './link-index.js'
import type { ProblemKind, ReadProblem } from './problem.js'
import type { RecoveredTornLine } from './recovered-line.js'

export interface ScanOptions {
  readonly signal?: AbortSignal | undefined
  /** Lines longer than this are skipped unread and reported as `too-long`. */
  readonly maxLineBytes?: number | undefined
  /** How many problems (and recovered lines) are kept with their details; the rest are only counted. */
  readonly keep?: number
  /** Sees each record with its line and its index in the file (the LinkIndex index); not kept. */
  readonly onRecord?: (record: SessionRecord, line: number, index: number) => void
}

export interface TranscriptScan {
  readonly records: number
  /** All problems found, including those not kept. */
  readonly problemCount: number
  readonly problemsByKind: Partial<Record<ProblemKind, number>>
  /** The first `keep` problems found, sorted by line. */
  readonly problems: ReadProblem[]
  readonly recoveredCount: number
  /** The first `keep` recovered torn lines. */
  readonly recovered: RecoveredTornLine[]
  readonly lastUuid: string | null
  /** Parent links of every record: for branch walks without holding records. */
  readonly links: LinkIndex
}

/** Problems kept with their details by default: enough to act on, small whatever the file holds. */
export const DEFAULT_KEEP = 1000

/**
 * One streaming pass over a transcript that checks everything `readSession` checks (line damage,
 * orphans, duplicate uuids, loops) without keeping a record: memory is one read buffer, `keep` problems,
 * and a few dozen bytes of link index per record. This is what `verify` runs, and the first pass of `show`.
 */
export async function scanTranscript(filePath: string, options: ScanOptions = {}): Promise<TranscriptScan> {
  const keep = options.keep ?? DEFAULT_KEEP
  const problems: ReadProblem[] = []
  const recovered: RecoveredTornLine[] = []
  const problemsByKind: Partial<Record<ProblemKind, number>> = {}
  let problemCount = 0
  let recoveredCount = 0
  let lastUuid: string | null = null
  const report = (problem: ReadProblem): void => {
    problemCount++
    problemsByKind[problem.kind] = (problemsByKind[problem.kind] ?? 0) + 1
    if (problems.length < keep) problems.push(problem)
  }
  const links = new LinkIndex(report)
  const { onRecord } = options
  for await (const batch of classifiedLines(filePath, {
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
  })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) {
        recoveredCount++
        if (recovered.length < keep) recovered.push(entry.recovered)
      }
      for (const problem of entry.problems) report(problem)
      for (const record of entry.records) {
        const index = links.add(record.uuid, record.parentUuid, entry.line)
        onRecord?.(record, entry.line, index)
        lastUuid = record.uuid
      }
    }
  }
  links.finish()
  problems.sort((a, b) => a.line - b.line)
  return {
    records: links.count,
    problemCount,
    problemsByKind,
    problems,
    recoveredCount,
    recovered,
    lastUuid,
    links,
  }
}
