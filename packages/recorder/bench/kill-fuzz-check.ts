import fs from 'node:fs'
import path from 'node:path'

import { readSession, type ReadProblem } from '../src/index.js'
import { lockPathOf } from '../src/session-lock.js'

/** What the children of one session were promised: every record a resolved flush() or close() covered. */
export interface Ledger {
  /** uuid → index of the child whose flush acknowledged it. */
  readonly acked: Map<string, number>
  /** Watermark uuids flushes resolved to → index of the child (each names a persisted record). */
  readonly marks: Map<string, number>
}

/** What one check of a transcript found. */
export interface Verdict {
  /** Acknowledged records looked up. */
  readonly checked: number
  /** Acknowledged records not in the file. */
  readonly lost: readonly string[]
  /** uuids on more than one line of the file (torn lines included). */
  readonly duplicated: readonly string[]
  /** Watermark uuids not in the file. */
  readonly missingMarks: readonly string[]
  /** Null, or how the snapshot taken after the previous child stopped being a prefix of the file. */
  readonly prefixViolation: string | null
  /** Reader problems that a killed writer does not explain (anything but the damage after the last record). */
  readonly problems: readonly ReadProblem[]
  /** Problems after the last record while the last writer was killed: a crash not yet resumed. */
  readonly pendingTail: readonly ReadProblem[]
  /** Torn lines the reader reports as recovered (named by a `recovered` record). */
  readonly recoveredLines: number
  readonly records: number
}

const OUR_LINE_START = Buffer.from('{"uuid":"')
const NEWLINE = 0x0a
const QUOTE = 0x22

/** Every uuid that starts a line of the file, torn lines included, with how many lines start with it. */
export function lineUuids(bytes: Buffer): Map<string, number> {
  const counts = new Map<string, number>()
  let start = 0
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start)
    const end = newline === -1 ? bytes.length : newline
    if (
      end - start > OUR_LINE_START.length &&
      bytes.compare(OUR_LINE_START, 0, OUR_LINE_START.length, start, start + OUR_LINE_START.length) === 0
    ) {
      const from = start + OUR_LINE_START.length
      const quote = bytes.indexOf(QUOTE, from)
      // A line torn inside its own uuid names no record.
      if (quote !== -1 && quote < end) {
        const uuid = bytes.toString('latin1', from, quote)
        counts.set(uuid, (counts.get(uuid) ?? 0) + 1)
      }
    }
    start = end + 1
  }
  return counts
}

/** Where `before` stops being a prefix of `now`, or null when it is one. */
export function prefixViolation(before: Buffer, now: Buffer): string | null {
  const common = Math.min(before.length, now.length)
  if (before.compare(now, 0, common, 0, common) !== 0) {
    let at = 0
    while (at < common && before[at] === now[at]) at++
    return `byte ${at} changed (0x${before[at]!.toString(16)} → 0x${now[at]!.toString(16)}); the file was ${before.length} bytes, now ${now.length}`
  }
  if (now.length < before.length) return `the file shrank from ${before.length} to ${now.length} bytes`
  return null
}

/**
 * Checks the transcript at `filePath` (whose bytes are `now`) against what the children were promised:
 * append-only since `before`, every acknowledged record exactly once, no uuid twice, and no reader problem
 * but the damage after the last record that a writer killed since its last resume leaves (when `killed`).
 */
export async function checkTranscript(
  filePath: string,
  now: Buffer,
  before: Buffer | null,
  ledger: Ledger,
  killed: boolean,
): Promise<Verdict> {
  const violation = before === null ? null : prefixViolation(before, now)
  const onLines = lineUuids(now)
  const duplicated = [...onLines].filter(([, count]) => count > 1).map(([uuid]) => uuid)
  let records = 0
  let recoveredLines = 0
  const inRecords = new Map<string, number>()
  const problems: ReadProblem[] = []
  const pendingTail: ReadProblem[] = []
  if (fs.existsSync(filePath)) {
    const read = await readSession(filePath)
    records = read.records.length
    recoveredLines = read.recovered.length
    for (const record of read.records) inRecords.set(record.uuid, (inRecords.get(record.uuid) ?? 0) + 1)
    const lastRecordLine = read.lines.at(-1) ?? 0
    for (const problem of read.problems) {
      if (killed && problem.line > lastRecordLine) pendingTail.push(problem)
      else problems.push(problem)
    }
  }
  for (const [uuid, count] of inRecords) if (count > 1 && !duplicated.includes(uuid)) duplicated.push(uuid)
  const lost: string[] = []
  for (const uuid of ledger.acked.keys()) if (!inRecords.has(uuid)) lost.push(uuid)
  const missingMarks = [...ledger.marks.keys()].filter((uuid) => !inRecords.has(uuid))
  return {
    checked: ledger.acked.size,
    lost,
    duplicated,
    missingMarks,
    prefixViolation: violation,
    problems,
    pendingTail,
    recoveredLines,
    records,
  }
}

/** The lock left next to a transcript, as the next writer will find it. */
export interface LockLeft {
  readonly dir: boolean
  /** Permission bits of the lock directory, when there is one. */
  readonly mode: number | null
  /** Permission bits of the directory holding the lock, when that is not the transcript's own (`.sessiontape/`). */
  readonly parentMode: number | null
  /** `valid`: an owner file whose lockId names this very lock directory. */
  readonly owner: 'none' | 'valid' | 'stale-id' | 'empty' | 'unparsable'
  readonly ownerText: string | null
}

export function lockLeft(filePath: string): LockLeft {
  const lockPath = lockPathOf(filePath)
  let stats: fs.Stats | null = null
  try {
    stats = fs.statSync(lockPath)
  } catch {
    // No lock directory: nothing can make the next writer wait.
  }
  let ownerText: string | null = null
  try {
    ownerText = fs.readFileSync(`${lockPath}.owner`, 'utf8')
  } catch {
    // No owner file.
  }
  let owner: LockLeft['owner'] = 'none'
  if (ownerText !== null) {
    if (ownerText === '') owner = 'empty'
    else {
      try {
        const parsed = JSON.parse(ownerText) as { lockId?: unknown }
        owner = stats !== null && parsed.lockId === `${stats.ino}:${stats.birthtimeMs}` ? 'valid' : 'stale-id'
      } catch {
        owner = 'unparsable'
      }
    }
  }
  let parentMode: number | null = null
  const parent = path.dirname(lockPath)
  if (parent !== path.dirname(filePath)) {
    try {
      parentMode = fs.statSync(parent).mode & 0o777
    } catch {
      // Not made yet: no lock was ever taken in this directory.
    }
  }
  return {
    dir: stats !== null,
    mode: stats === null ? null : stats.mode & 0o777,
    parentMode,
    owner,
    ownerText,
  }
}
