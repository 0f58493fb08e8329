import fs from 'node:fs'
import path from 'node:path'

import { type ReadProblem, readSession, type ReadSessionResult, type SessionRecord } from '../src/index.js'
import { lockPathOf } from '../src/lock/session-lock.js'
import { contentSum } from './kill-fuzz-protocol.js'

/** What the children of one session were promised: every record a resolved flush() or close() covered. */
export interface Ledger {
  /** uuid → index of the child whose flush acknowledged it. */
  readonly acked: Map<string, number>
  /** Watermark uuids flushes resolved to → index of the child (each names a persisted record). */
  readonly marks: Map<string, number>
  /**
   * Records whose content digest was checked in an earlier snapshot. Not checked again: the prefix check
   * proves their bytes unchanged.
   */
  readonly verified: Set<string>
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
  /** Records whose content does not match the digest the child computed before `record()`. */
  readonly contentWrong: readonly string[]
  /** Records of one child out of the order it recorded them in, or after a gap (a record missing before a written one). */
  readonly misordered: readonly string[]
  /** Records whose digest this check verified for the first time, by `<mode> <shape>` (`copy text`, `handover structure`…). */
  readonly newlyVerified: ReadonlyMap<string, number>
  /** Acknowledged records in the file that were recorded with `{ handOver: true }`. */
  readonly ackedHandOver: number
  /** 1-based line numbers of the records in `contentWrong` and `misordered`, to save them as they are. */
  readonly badLines: readonly number[]
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
  let read: ReadSessionResult | null = null
  const inRecords = new Map<string, number>()
  const problems: ReadProblem[] = []
  const pendingTail: ReadProblem[] = []
  if (fs.existsSync(filePath)) {
    read = await readSession(filePath)
    for (const record of read.records) inRecords.set(record.uuid, (inRecords.get(record.uuid) ?? 0) + 1)
    const lastRecordLine = read.lines.at(-1) ?? 0
    for (const problem of read.problems) {
      if (killed && problem.line > lastRecordLine) pendingTail.push(problem)
      else problems.push(problem)
    }
  }
  for (const [uuid, count] of inRecords) if (count > 1 && !duplicated.includes(uuid)) duplicated.push(uuid)
  const content = checkContent(read?.records ?? [], read?.lines ?? [], ledger)
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
    recoveredLines: read?.recovered.length ?? 0,
    records: read?.records.length ?? 0,
    ...content,
  }
}

/**
 * Checks the fuzz's own fields of every record: each `fuzz` record's content against the digest its child
 * computed before recording it (once per record), each `title` against its `seq`, and that each child's
 * records are in the file in the order it recorded them, none missing before a written one.
 */
function checkContent(
  records: readonly SessionRecord[],
  lines: readonly number[],
  ledger: Ledger,
): Pick<Verdict, 'contentWrong' | 'misordered' | 'newlyVerified' | 'ackedHandOver' | 'badLines'> {
  const badLines: number[] = []
  const contentWrong: string[] = []
  const misordered: string[] = []
  const newlyVerified = new Map<string, number>()
  const lastSeq = new Map<number, number>()
  let ackedHandOver = 0
  records.forEach((record, index) => {
    if (record.type !== 'fuzz' && record.type !== 'title') return
    const where = `line ${lines[index]} (${record.uuid})`
    const { run, seq } = record as { run?: unknown; seq?: unknown }
    if (typeof run !== 'number' || typeof seq !== 'number') {
      contentWrong.push(`${where}: no run/seq: ${describe(record)}`)
      badLines.push(lines[index]!)
      return
    }
    const expected = (lastSeq.get(run) ?? -1) + 1
    if (seq !== expected) {
      misordered.push(`${where}: child ${run} seq ${seq} where ${expected} was next`)
      badLines.push(lines[index]!)
    }
    lastSeq.set(run, Math.max(seq, lastSeq.get(run) ?? -1))
    const { shape, mode, sum, body } = record as {
      shape?: unknown
      mode?: unknown
      sum?: unknown
      body?: unknown
    }
    if (mode === 'handover' && ledger.acked.has(record.uuid)) ackedHandOver++
    if (ledger.verified.has(record.uuid)) return
    const title = record.type === 'title'
    const digest = title ? null : contentSum([run, seq, shape, mode, body])
    if (title ? (record as { title?: unknown }).title !== `fuzz ${seq}` : digest !== sum) {
      const why = title ? 'title not `fuzz <seq>`' : `digest ${digest}, recorded ${JSON.stringify(sum)}`
      contentWrong.push(`${where}: ${why}: ${describe(record)}`)
      if (badLines.at(-1) !== lines[index]) badLines.push(lines[index]!)
    }
    ledger.verified.add(record.uuid)
    const key = title
      ? 'copy title'
      : `${mode === 'handover' ? 'handover' : 'copy'} ${typeof shape === 'string' ? shape : '?'}`
    newlyVerified.set(key, (newlyVerified.get(key) ?? 0) + 1)
  })
  return { contentWrong, misordered, newlyVerified, ackedHandOver, badLines }
}

/** The lines numbered `numbers` (1-based) of `bytes`, each with its newline, as they are in the file. */
export function linesAt(bytes: Buffer, numbers: readonly number[]): Buffer {
  const wanted = new Set(numbers)
  const picked: Buffer[] = []
  let start = 0
  for (let line = 1; start < bytes.length && picked.length < wanted.size; line++) {
    const newline = bytes.indexOf(NEWLINE, start)
    const end = newline === -1 ? bytes.length : newline + 1
    if (wanted.has(line)) picked.push(bytes.subarray(start, end))
    start = end
  }
  return Buffer.concat(picked)
}

/** A record's fields, long strings shortened, for a failure message. */
function describe(record: SessionRecord): string {
  const text = JSON.stringify(record, (_key, value: unknown) =>
    typeof value === 'string' && value.length > 80
      ? `${value.slice(0, 40)}…(${value.length} code units)…${value.slice(-20)}`
      : Array.isArray(value) && value.length > 8
        ? [...(value.slice(0, 4) as unknown[]), `…(${value.length} items)`]
        : value,
  )
  return text.length > 600 ? `${text.slice(0, 600)}…` : text
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
