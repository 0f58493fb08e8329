/**
 * Compares what the shipper delivered with the transcripts on disk. Every shipped line is matched to the
 * line of its transcript it must be a copy of; records are counted by uuid.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

export interface SessionCheck {
  readonly file: string
  /** Newline-terminated lines in the transcript, and how many of them are records. */
  readonly lines: number
  readonly records: number
  /** Lines that are not records: torn bytes a `recovered` record names, or a line damaged on disk. */
  readonly otherLines: number
  readonly recoveredRecords: number
  readonly shippedLines: number
  readonly lost: number
  readonly duplicated: number
  /** Shipped lines that are not a whole line of the transcript (a record cut by a line limit, say). */
  readonly fragments: number
  /** Shipped records that arrived before a record written ahead of them. */
  readonly outOfOrder: number
  /** The shipped lines, in order, are exactly the transcript's lines. */
  readonly identical: boolean
  readonly largestRecordBytes: number
}

export interface Comparison {
  readonly sessions: SessionCheck[]
  /** Lines shipped from files that are not transcripts (sidecars, locks, repair copies …): must be none. */
  readonly nonTranscriptLines: number
  readonly nonTranscriptFiles: string[]
  /** Every record size, for the size table. */
  readonly recordSizes: number[]
  readonly ok: boolean
}

const hash = (bytes: Buffer | string): string => createHash('sha1').update(bytes).digest('hex')

/** `<source file>\t<message>` lines of the shipper's output file, grouped by source file. */
export function readShipped(outputPath: string): Map<string, Buffer[]> {
  const bytes = readFileSync(outputPath)
  const shipped = new Map<string, Buffer[]>()
  let start = 0
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start)
    if (end === -1) end = bytes.length
    const line = bytes.subarray(start, end)
    const tab = line.indexOf(0x09)
    const file = tab === -1 ? '' : line.subarray(0, tab).toString('utf8')
    const message = tab === -1 ? line : line.subarray(tab + 1)
    let list = shipped.get(file)
    if (list === undefined) shipped.set(file, (list = []))
    list.push(message)
    start = end + 1
  }
  return shipped
}

/** Newline-terminated lines of a file (a torn last line without its newline is not shippable yet). */
function linesOf(file: string): Buffer[] {
  const bytes = readFileSync(file)
  const lines: Buffer[] = []
  let start = 0
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end))
    start = end + 1
  }
  return lines
}

function recordOf(line: Buffer): { uuid: string; type: unknown } | undefined {
  if (line[0] !== 0x7b) return undefined
  try {
    const value = JSON.parse(line.toString('utf8')) as { uuid?: unknown; sessionId?: unknown; type?: unknown }
    return typeof value.uuid === 'string' && typeof value.sessionId === 'string'
      ? { uuid: value.uuid, type: value.type }
      : undefined
  } catch {
    return undefined
  }
}

function checkSession(file: string, shipped: readonly Buffer[], sizes: number[]): SessionCheck {
  const lines = linesOf(file)
  const index = new Map<string, number>()
  const lineHashes = new Set<string>()
  let records = 0
  let recoveredRecords = 0
  let largestRecordBytes = 0
  lines.forEach((line, i) => {
    lineHashes.add(hash(line))
    const record = recordOf(line)
    if (record === undefined) return
    records++
    if (record.type === 'recovered') recoveredRecords++
    index.set(record.uuid, i)
    sizes.push(line.length + 1)
    largestRecordBytes = Math.max(largestRecordBytes, line.length + 1)
  })
  const seen = new Map<string, number>()
  let fragments = 0
  let outOfOrder = 0
  let last = -1
  for (const line of shipped) {
    if (!lineHashes.has(hash(line))) {
      fragments++
      continue
    }
    const record = recordOf(line)
    if (record === undefined) continue
    seen.set(record.uuid, (seen.get(record.uuid) ?? 0) + 1)
    const at = index.get(record.uuid) ?? -1
    if (at < last) outOfOrder++
    last = Math.max(last, at)
  }
  let lost = 0
  for (const uuid of index.keys()) if (!seen.has(uuid)) lost++
  let duplicated = 0
  for (const count of seen.values()) duplicated += count - 1
  const identical = shipped.length === lines.length && shipped.every((line, i) => line.equals(lines[i]!))
  return {
    file: basename(file),
    lines: lines.length,
    records,
    otherLines: lines.length - records,
    recoveredRecords,
    shippedLines: shipped.length,
    lost,
    duplicated,
    fragments,
    outOfOrder,
    identical,
    largestRecordBytes,
  }
}

/** Compares every `*.jsonl` transcript in `sessionsDir` with what the shipper wrote to `outputPath`. */
export function compare(sessionsDir: string, outputPath: string): Comparison {
  const shipped = readShipped(outputPath)
  const transcripts = readdirSync(sessionsDir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(sessionsDir, name))
  const sizes: number[] = []
  const sessions = transcripts.map((file) => checkSession(file, shipped.get(file) ?? [], sizes))
  const nonTranscriptFiles = [...shipped.keys()].filter(
    (file) => !(transcripts.includes(file) && dirname(file) === sessionsDir),
  )
  const nonTranscriptLines = nonTranscriptFiles.reduce((sum, file) => sum + shipped.get(file)!.length, 0)
  const ok =
    nonTranscriptLines === 0 &&
    sessions.every((s) => s.lost + s.duplicated + s.fragments + s.outOfOrder === 0 && s.identical)
  return { sessions, nonTranscriptLines, nonTranscriptFiles, recordSizes: sizes, ok }
}

/** Lines the shipper must deliver in all: every newline-terminated line of every transcript. */
export function expectedLines(sessionsDir: string): number {
  return readdirSync(sessionsDir)
    .filter((name) => name.endsWith('.jsonl'))
    .reduce((sum, name) => sum + linesOf(join(sessionsDir, name)).length, 0)
}

/** Lines in the shipper's output so far. */
export function shippedLineCount(outputPath: string): number {
  try {
    const bytes = readFileSync(outputPath)
    let count = 0
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++
    return count
  } catch {
    return 0
  }
}
