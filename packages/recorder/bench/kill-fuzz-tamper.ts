// The kill fuzz's tamperer lane: a writer child records and flushes one session while this process tampers
// with its transcript at random moments — the faults of guarantee 7's table: an older or current copy renamed
// over it, the file deleted, truncated, overwritten in place (with foreign bytes or an older copy of itself),
// a foreign partial line appended, a foreign file or another session's transcript renamed over it, a FIFO
// put at the path. After each case the writer closes and everything is checked against the table:
// - every acknowledged record is in the final transcript exactly once, unless the table says the tamperer
//   destroyed it (its file deleted; its bytes truncated or overwritten in place — and then the writer
//   reported losses at least as many as are missing);
// - no record twice; every acknowledged record parses (none glued to a foreign partial line), unless it was
//   written again whole, or it is the raced write the writer reported in a file it takes for not ours (the
//   final transcript being that file, or a copy of it: README guarantee 7's race clause);
// - every file that is not ours (foreign bytes, another session's copy, a foreign overwrite in place) is
//   byte for byte what the tamperer put there: no record of ours in a file not ours;
// - no hang: the writer closes and exits within a bound.
//
// Run (from packages/recorder): pnpm bench:kill-fuzz-tamper [-- --ops 1000] [--seed S] [--dir D] [--keep]
import { execFileSync, spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import type { ChildEvent } from './kill-fuzz-protocol.js'
import { caseSeed, Random } from './kill-fuzz-random.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const CHILD = path.join(here, 'kill-fuzz-tamper-child.ts')
const OPS_PER_CASE = 12
// Past this after `end` the writer is killed as hung (a failure).
const HANG_MS = 30_000
const CHECK_INTERVALS = [0, 20, 1000] as const
const OPS = [
  'copy-over-older',
  'copy-over-current',
  'delete',
  'truncate',
  'overwrite-foreign',
  'overwrite-older-in-place',
  'append-partial',
  'foreign-rename',
  'other-session',
  'fifo',
] as const
type Op = (typeof OPS)[number]

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
  options: {
    ops: { type: 'string' },
    seed: { type: 'string' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    case: { type: 'string' },
  },
})
const totalOps = Number(values.ops ?? 1000)
const seed = (values.seed === undefined ? randomInt(0, 2 ** 32) : Number(values.seed)) >>> 0
const root = values.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-tamper-fuzz-'))
fs.mkdirSync(root, { recursive: true })

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Totals {
  cases: number
  ops: Record<Op, number>
  acknowledged: number
  destroyedByTable: number
  reportedLost: number
  untoldReports: number
  missingUnreported: number
  duplicates: number
  unparsable: number
  regluedRewritten: number
  foreignWritten: number
  racedReported: number
  racedGluedReported: number
  emptyLines: number
  hangs: number
  skipped: number
  failures: string[]
}
const totals: Totals = {
  cases: 0,
  ops: Object.fromEntries(OPS.map((op) => [op, 0])) as Record<Op, number>,
  acknowledged: 0,
  destroyedByTable: 0,
  reportedLost: 0,
  untoldReports: 0,
  missingUnreported: 0,
  duplicates: 0,
  unparsable: 0,
  regluedRewritten: 0,
  foreignWritten: 0,
  racedReported: 0,
  racedGluedReported: 0,
  emptyLines: 0,
  hangs: 0,
  skipped: 0,
  failures: [],
}

function foreignBytes(random: Random, size: number): Buffer {
  const rows: string[] = ['name,value']
  while (rows.join('\n').length < size) rows.push(`row${rows.length},${random.int(0, 1e9)}`)
  return Buffer.from(`${rows.join('\n')}\n`).subarray(0, Math.max(size, 1))
}

function otherSessionBytes(): Buffer {
  return Buffer.from(
    '{"uuid":"0000-other","parentUuid":null,"sessionId":"another-session","timestamp":"2026-11-25T10:00:00.000Z","type":"user","v":1,"text":"theirs"}\n',
  )
}

// Our envelope up to the format version, as the writer's ownership check reads a first line.
const ENVELOPE =
  /^\{"uuid":"[^"\\]+","parentUuid":(?:null|"(?:[^"\\]|\\.)*"),"sessionId":"tampered","timestamp":"[^"\\]*","type":"(?:[^"\\]|\\.)*","v":1[,}]/

/** Whether the writer takes `bytes` for a transcript of this session: empty, our envelope first, or one torn line of ours. */
function recognizable(bytes: Buffer): boolean {
  if (bytes.length === 0) return true
  const newline = bytes.indexOf(0x0a)
  const first = bytes.toString('utf8', 0, newline === -1 ? bytes.length : newline)
  return ENVELOPE.test(first) || (newline === -1 && first.startsWith('{"uuid":"'))
}

function readOrEmpty(file: string): Buffer {
  try {
    return fs.readFileSync(file)
  } catch {
    return Buffer.alloc(0)
  }
}

/** uuid → count of the lines of `file` that are records; and how many lines did not parse. */
function recordsOf(file: string): { uuids: Map<string, number>; unparsable: string[] } {
  const uuids = new Map<string, number>()
  const unparsable: string[] = []
  for (const line of readOrEmpty(file).toString('utf8').split('\n')) {
    if (line === '') continue
    try {
      const record = JSON.parse(line) as { uuid?: unknown }
      if (typeof record.uuid === 'string') uuids.set(record.uuid, (uuids.get(record.uuid) ?? 0) + 1)
    } catch {
      unparsable.push(line)
    }
  }
  return { uuids, unparsable }
}

async function runCase(index: number, ops: number): Promise<number> {
  const random = new Random(caseSeed(seed, index))
  const dir = path.join(root, `case-${index}`)
  const sides = path.join(dir, 'sides')
  fs.mkdirSync(sides, { recursive: true })
  const sessionId = 'tampered'
  const file = path.join(dir, `${sessionId}.jsonl`)
  const plan = {
    dir,
    sessionId,
    fileCheckIntervalMs: random.pick(CHECK_INTERVALS),
    seed: random.int(0, 2 ** 31),
  }
  const child = spawn(
    process.execPath,
    ['--conditions=@sessiontape/source', '--import', 'tsx', CHILD, JSON.stringify(plan)],
    { cwd: path.dirname(here), stdio: ['pipe', 'pipe', 'pipe'] },
  )
  const events: ChildEvent[] = []
  // What happened when, for a failing case's post-mortem (kept in its directory as log.jsonl).
  const log: unknown[] = []
  const started = Date.now()
  let pending = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk
    let newline: number
    while ((newline = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, newline)
      pending = pending.slice(newline + 1)
      try {
        const event = JSON.parse(line) as ChildEvent
        events.push(event)
        log.push({
          ms: Date.now() - started,
          child: event.t === 'ack' ? { ...event, uuids: event.uuids.length } : event,
        })
      } catch {
        // Noise on stdout: not an event.
      }
    }
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let gone = false
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      gone = true
      resolve()
    }),
  )
  while (!events.some((event) => event.t === 'ack')) {
    if (gone)
      throw new Error(
        `case ${index}: the writer ended before its first flush (stderr: ${stderr.slice(-500)})`,
      )
    await sleep(10)
  }

  // Files the tamperer put somewhere (at the path, then moved aside) that are not ours, with their bytes.
  const foreign: Array<{ path: string; bytes: Buffer }> = []
  // Files of ours removed from the path (deleted, or something not ours put in their place): kept to read.
  const removed: string[] = []
  // Files replaced by copies since the path last went away: the records they held that a copy lacks are
  // carried into the copy, so they go with it if it goes (the table's first and third rows).
  const copies: string[] = []
  let snapshot: Buffer | null = null
  let partials = 0
  let performed = 0
  let sideCount = 0
  const side = (name: string): string => path.join(sides, `${sideCount++}-${name}`)
  /**
   * Puts `from` at the path, replacing what is there; returns a hard link to the file it replaced (null: the
   * path was free). Never a file unseen: a link taken first names the file the rename replaces (only the
   * tamperer removes files), and a free path is taken with link(), which fails if the writer made one since.
   */
  const placeOver = (from: string): string | null => {
    for (;;) {
      const link = side('old')
      try {
        fs.linkSync(file, link)
        fs.renameSync(from, file)
        return link
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      try {
        fs.linkSync(from, file)
        fs.rmSync(from)
        return null
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
    }
  }
  /** Moves whatever is at the path aside (after a while), so the writer can go on. */
  const clearAfter = async (name: string): Promise<string> => {
    await sleep(random.real(20, 300))
    const moved = side(name)
    fs.renameSync(file, moved)
    return moved
  }

  for (let attempt = 0; attempt < ops; attempt++) {
    await sleep(random.real(5, 150))
    if (random.chance(0.3)) snapshot = readOrEmpty(file)
    const op = random.pick(OPS)
    const before = readOrEmpty(file).length
    log.push({ ms: Date.now() - started, op, before })
    try {
      await tamper(op)
      log.push({ ms: Date.now() - started, done: op, after: readOrEmpty(file).length })
      totals.ops[op]++
      performed++
    } catch (error) {
      // The path is empty for a moment (deleted, the writer not yet back): that operation had nothing to act on.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      totals.skipped++
    }
  }

  /** The file at the path goes away (removed, or destroyed in place): so does what was carried into it. */
  function copyGone(): void {
    removed.push(...copies.splice(0))
  }

  async function tamper(op: Op): Promise<void> {
    if (op === 'delete' || op === 'fifo' || op === 'foreign-rename' || op === 'other-session') copyGone()
    if (op === 'overwrite-foreign') copyGone()
    switch (op) {
      case 'copy-over-older':
      case 'copy-over-current': {
        const bytes = op === 'copy-over-older' && snapshot !== null ? snapshot : readOrEmpty(file)
        fs.writeFileSync(`${file}.tmp`, bytes)
        const link = placeOver(`${file}.tmp`)
        // A copy whose first line no longer says it is ours (a snapshot taken after a cut through the first
        // record) is a file that is not ours to the writer: the replaced file went as if deleted.
        if (link !== null && !recognizable(bytes)) removed.push(link)
        // What the copy lacks is carried into it: if the copy goes away too, that goes with it.
        else if (link !== null) copies.push(link)
        break
      }
      case 'delete': {
        // Moved away rather than unlinked: what left the path is exactly what is kept to read.
        const link = side('old')
        fs.renameSync(file, link)
        removed.push(link)
        // An older copy of a deleted file is not a copy of the file the writer recreates.
        snapshot = null
        break
      }
      case 'truncate': {
        const size = readOrEmpty(file).length
        const to = random.chance(0.2) ? 0 : random.int(0, size)
        log.push({ truncateTo: to })
        fs.truncateSync(file, to)
        break
      }
      case 'overwrite-foreign': {
        const size = readOrEmpty(file).length
        const bytes = foreignBytes(random, random.pick([Math.max(size >> 1, 1), size, size + 300]))
        fs.writeFileSync(file, bytes)
        foreign.push({ path: await clearAfter('overwritten-foreign'), bytes })
        break
      }
      case 'overwrite-older-in-place': {
        if (snapshot !== null) fs.writeFileSync(file, snapshot)
        break
      }
      case 'append-partial': {
        // O_APPEND without O_CREAT: appending to a missing path must not plant a file of our own making.
        const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND)
        fs.writeSync(fd, `partial line of another tool ${partials++}`)
        fs.closeSync(fd)
        break
      }
      case 'foreign-rename':
      case 'other-session': {
        const bytes =
          op === 'foreign-rename' ? foreignBytes(random, random.int(10, 2000)) : otherSessionBytes()
        // Replaced by a file that is not ours: the old file left the path, and the records acknowledged in it
        // went with it, as when it is deleted (the table's first row).
        fs.writeFileSync(`${file}.tmp`, bytes)
        const link = placeOver(`${file}.tmp`)
        if (link !== null) removed.push(link)
        foreign.push({ path: await clearAfter(op), bytes })
        snapshot = null
        break
      }
      case 'fifo': {
        // Made aside and put over: the writer may recreate the path at any moment.
        fs.rmSync(`${file}.fifo`, { force: true })
        execFileSync('mkfifo', [`${file}.fifo`])
        const link = placeOver(`${file}.fifo`)
        if (link !== null) removed.push(link)
        await sleep(random.real(20, 300))
        fs.rmSync(file, { force: true })
        snapshot = null
        break
      }
    }
  }

  await sleep(200)
  child.stdin.write('end\n')
  const timer = setTimeout(() => {
    totals.hangs++
    totals.failures.push(`case ${index}: the writer did not close within ${HANG_MS} ms`)
    child.kill('SIGKILL')
  }, HANG_MS)
  await exited
  clearTimeout(timer)
  const failuresBefore = totals.failures.length
  check(index, file, events, foreign, removed, stderr)
  totals.cases++
  if (values.keep || totals.failures.length > failuresBefore) {
    fs.writeFileSync(path.join(dir, 'log.jsonl'), log.map((entry) => JSON.stringify(entry)).join('\n') + '\n')
  } else {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return performed
}

const LOSS = /(at least )?(\d+) record\(s\) already written were lost/
const RACED = /our last write \(\d+ byte\(s\), counted among those lost\) was on its way as it was rewritten/

function check(
  index: number,
  file: string,
  events: readonly ChildEvent[],
  foreign: ReadonlyArray<{ path: string; bytes: Buffer }>,
  removed: readonly string[],
  stderr: string,
): void {
  const fail = (what: string): void => {
    totals.failures.push(`case ${index}: ${what}`)
  }
  const acknowledged = new Set<string>()
  let reported = 0
  for (const event of events) {
    if (event.t === 'ack') for (const uuid of event.uuids) acknowledged.add(uuid)
    if (event.t !== 'error' || event.where !== 'onError') continue
    if (event.code !== 'ERR_TRANSCRIPT_TRUNCATED' && event.code !== 'ERR_TRANSCRIPT_OVERWRITTEN') continue
    const match = LOSS.exec(event.message)
    if (match === null) totals.untoldReports++
    else reported += Number(match[2])
  }
  if (!events.some((event) => event.t === 'closed'))
    fail(`the writer did not close (stderr: ${stderr.slice(-300)})`)
  const final = recordsOf(file)
  // An empty line is a newline written or carried where no line ended (a carry starting with the newline
  // that ended someone's unfinished line): counted, not failed (a cut racing the newline that ends their
  // line can leave one too). The first line empty makes the file not ours to any later open: that fails.
  const finalText = readOrEmpty(file).toString('utf8')
  const emptyLines = finalText
    .split('\n')
    .slice(0, -1)
    .filter((line) => line === '').length
  totals.emptyLines += emptyLines
  if (finalText.startsWith('\n'))
    fail('the transcript starts with an empty line: no later open takes it for ours')
  // Acknowledged records in a file the tamperer removed from the path went with it (the table's first row).
  const excused = new Set<string>()
  for (const link of removed) for (const uuid of recordsOf(link).uuids.keys()) excused.add(uuid)
  let missing = 0
  let destroyed = 0
  const missingUuids: string[] = []
  for (const uuid of acknowledged) {
    const count = final.uuids.get(uuid) ?? 0
    if (count > 1) {
      totals.duplicates++
      fail(`acknowledged record ${uuid} is in the transcript ${count} times`)
    }
    if (count > 0) continue
    if (excused.has(uuid)) destroyed++
    else {
      missing++
      missingUuids.push(uuid)
    }
  }
  for (const [uuid, count] of final.uuids) {
    if (count > 1 && !acknowledged.has(uuid)) {
      totals.duplicates++
      fail(`record ${uuid} is in the transcript ${count} times`)
    }
  }
  // Missing records the writer reported as destroyed in place (truncated, overwritten) are the table's too.
  const unreported = Math.max(0, missing - reported)
  totals.acknowledged += acknowledged.size
  totals.destroyedByTable += destroyed + Math.min(missing, reported)
  totals.reportedLost += reported
  if (unreported > 0) {
    totals.missingUnreported += unreported
    fail(`${missing} acknowledged record(s) missing, only ${reported} reported lost`)
    fs.writeFileSync(path.join(path.dirname(file), 'missing.txt'), `${missingUuids.join('\n')}\n`)
  }
  // A write of ours already on its way when the file was rewritten in place (their truncation or their whole
  // rewrite between the read before the write and the write: the race README guarantee 7 names) ends up in
  // their file; the writer must say so, once per such file. Any other byte of ours in a file not ours fails.
  let racedReports = events.filter(
    (event) => event.t === 'error' && event.where === 'onError' && RACED.test(event.message),
  ).length
  for (const planted of foreign) {
    if (readOrEmpty(planted.path).equals(planted.bytes)) continue
    if (racedReports > 0) {
      racedReports--
      totals.racedReported++
      continue
    }
    totals.foreignWritten++
    fail(`${planted.path}, a file that is not ours, was written (and the writer did not say so)`)
  }
  // The final transcript may itself be such a file (or a copy of one): foreign bytes put into our emptied
  // file — an empty file counts as ours before its first record, so bytes not ours at its start are a
  // rewrite in place, README guarantee 7's "overwrites it in place … also before our first record" — with
  // our write racing them, glued to their line. The writer never writes that file again, and counts that
  // write among the records lost (checked above with the others missing); one glued line per such report.
  let racedIntoFinal = recognizable(readOrEmpty(file)) ? 0 : racedReports
  // A line that does not parse is the tamperer's partial line, or a record of ours cut by a truncation or an
  // overwrite in place (the table's, counted above); never one of our records glued after other bytes.
  for (const line of final.unparsable) {
    const at = line.indexOf('{"uuid":"')
    if (at <= 0) continue
    // Glued to someone's unfinished line by a race (their append between our check and our write): the
    // writer writes that record again on a line of its own — if it is there, nothing was lost.
    const uuid = /^\{"uuid":"([^"]+)"/.exec(line.slice(at))?.[1]
    if (uuid !== undefined && final.uuids.has(uuid)) {
      totals.regluedRewritten++
      continue
    }
    if (racedIntoFinal > 0) {
      racedIntoFinal--
      totals.racedGluedReported++
      continue
    }
    totals.unparsable++
    fail(`a line of the transcript does not parse: ${line.slice(0, 120)}`)
  }
}

async function main(): Promise<void> {
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    } catch {
      return '(not a git checkout)'
    }
  })()
  console.log(`tamper fuzz: seed ${seed}, ${totalOps} tamper operations, dir ${root}, commit ${commit}`)
  const started = Date.now()
  let done = 0
  if (values.case !== undefined) {
    done = await runCase(Number(values.case), OPS_PER_CASE)
  }
  for (let index = 0; values.case === undefined && done < totalOps; index++) {
    done += await runCase(index, Math.min(OPS_PER_CASE, totalOps - done))
    if (index % 10 === 9)
      console.error(
        `  ${done} operations, ${((Date.now() - started) / 1000).toFixed(0)} s, ${totals.failures.length} failure(s)`,
      )
  }
  const t = totals
  console.log(
    [
      '',
      `cases: ${t.cases}, tamper operations: ${done}, skipped (nothing at the path): ${t.skipped} (${OPS.map((op) => `${op} ${t.ops[op]}`).join(', ')})`,
      `acknowledged records: ${t.acknowledged}; missing because the table says the tamperer destroyed them: ${t.destroyedByTable} (reported lost by the writer: ${t.reportedLost}; reports without a count: ${t.untoldReports})`,
      `unreported losses: ${t.missingUnreported}, duplicates: ${t.duplicates}, unparsable lines of ours: ${t.unparsable} (glued and written again: ${t.regluedRewritten}; glued in a file not ours, the raced write reported: ${t.racedGluedReported}), writes into files not ours: ${t.foreignWritten} (and ${t.racedReported} raced a rewrite in place and were reported), empty lines in final transcripts: ${t.emptyLines}, hangs: ${t.hangs}`,
      `time: ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ].join('\n'),
  )
  if (t.failures.length === 0) {
    if (!values.keep && values.dir === undefined) fs.rmSync(root, { recursive: true, force: true })
    console.log(`PASS: seed ${seed}, no failure.`)
    return
  }
  console.log(`FAIL: seed ${seed}, ${t.failures.length} failure(s):`)
  for (const failure of t.failures.slice(0, 40)) console.log(`  - ${failure}`)
  process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
