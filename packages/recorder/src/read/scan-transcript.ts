import type { SessionRecord } from '../format/record-format.js'
import { classifiedLines } from './classified-lines.js'
import { isLeafCandidate, linkParentOf } from './formats/record-links.js'
import { resolveFormat } from './formats/resolve-format.js'
import { isForeignFormat, type FormatOption, type TranscriptFormat } from './formats/transcript-format.js'
import { LinkIndex, type EarlierSessionLink } from './link-index.js'
import type { ProblemKind, ReadProblem } from '../format/problem.js'
import type { RecoveredTornLine } from '../format/recovered-line.js'

export interface ScanOptions {
  readonly signal?: AbortSignal | undefined
  /** Lines longer than this are skipped unread and reported as `too-long`. */
  readonly maxLineBytes?: number | undefined
  /** How many problems (and recovered lines) are kept with their details; the rest are only counted. */
  readonly keep?: number
  /** The file's format, or `'auto'` to recognise it. @default 'auto' */
  readonly format?: FormatOption | undefined
  /** Sees each metadata line of another tool's format (not a record, not a problem). */
  readonly onMetadata?: (value: Readonly<Record<string, unknown>>, line: number) => void
  /** Sees each record with its line and its index in the file (the LinkIndex index); not kept. */
  readonly onRecord?: (record: SessionRecord, line: number, index: number) => void
  /** Scan this file alone, not the other files of its session (repair works on one file). @default false */
  readonly oneFile?: boolean
}

export interface TranscriptScan {
  readonly format: TranscriptFormat
  /** The files read, in order: more than one for a session kept in segments (format/segments.ts). */
  readonly files: readonly string[]
  readonly records: number
  /** Index of the record the active branch ends at by default (the last non-sidechain, non-metadata one); -1 for none. */
  readonly leafIndex: number
  /** Lines of another tool's format that are metadata, not records (Claude's `summary`, Gemini's `$set`…). */
  readonly metadataCount: number
  /** Records whose parent is in an earlier session file (other agents' transcripts): not damage. */
  readonly earlierSession: EarlierSessionLink[]
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
  const format = await resolveFormat(filePath, options.format ?? 'auto')
  const earlierSession: EarlierSessionLink[] = []
  const links = new LinkIndex(
    report,
    isForeignFormat(format) ? (link) => earlierSession.push(link) : undefined,
  )
  const { onRecord, onMetadata } = options
  let leafIndex = -1
  let metadataCount = 0
  let files: readonly string[] = [filePath]
  for await (const batch of classifiedLines(filePath, {
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
    format,
    oneFile: options.oneFile,
    onFiles: (read) => (files = read),
  })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) {
        recoveredCount++
        if (recovered.length < keep) recovered.push(entry.recovered)
      }
      for (const problem of entry.problems) report(problem)
      if (entry.metadata !== undefined) {
        metadataCount += entry.metadata.length
        if (onMetadata !== undefined) for (const value of entry.metadata) onMetadata(value, entry.line)
      }
      for (const record of entry.records) {
        const index = links.add(record.uuid, linkParentOf(record), entry.line)
        if (isLeafCandidate(record)) leafIndex = index
        onRecord?.(record, entry.line, index)
        lastUuid = record.uuid
      }
    }
  }
  if (leafIndex === -1) leafIndex = links.count - 1
  links.finish()
  problems.sort((a, b) => a.line - b.line)
  return {
    format,
    files,
    records: links.count,
    leafIndex,
    metadataCount,
    earlierSession,
    problemCount,
    problemsByKind,
    problems,
    recoveredCount,
    recovered,
    lastUuid,
    links,
  }
}
