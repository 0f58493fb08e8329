/**
 * Shipper end-to-end check: rsyslog (imfile) tails a sessions directory with the broadest glob a user
 * might write (`<dir>/*`) while the example agent writes several sessions at once, is SIGKILLed at random
 * moments and resumed, writes records from 1 KB to 6 MB, and is repaired. Then what rsyslog delivered is
 * compared with the transcripts: 0 lost, 0 duplicated, 0 fragments, per-session order kept, nothing
 * shipped from a file that is not a transcript. Prints the table; exits 1 on any difference.
 *
 *   node --conditions=@sessiontape/source --import tsx scripts/shipper-e2e/main.ts [--quick] [--install]
 *        [--seed <n>] [--keep] [--json]
 *
 * --quick   2 sessions × 4 kills, records up to 3 MB (the CI variant); default: 4 sessions × 6 kills
 *           (24 kill/resume cycles plus the repair's), records of 1 KB, 100 KB, 3 MB and 6 MB
 * --install install Debian's rsyslog with apt-get when rsyslogd is missing (root only)
 * --max-message-size <bytes>  rsyslog's line limit (default 16 MiB; rsyslog's own default is 8 KiB)
 * Exit codes: 0 all shipped exactly, 1 a difference (or a run that went wrong), 77 skipped: no rsyslogd.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { compare, expectedLines, shippedLineCount, type Comparison } from './compare.js'
import { drive, PADS, type DriveLog, type PadName } from './drive.js'
import { findRsyslogd, installRsyslog, rsyslogVersion, startRsyslog } from './rsyslog.js'

const EXIT_SKIP = 77
/** Give up waiting for the shipper once its output has not grown for this long. */
const SETTLE_IDLE_MS = 30_000

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    install: { type: 'boolean', default: false },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'max-message-size': { type: 'string' },
  },
})

/**
 * Above the largest record (6 MB of padding is ~6 MB of JSON); rsyslog's default is 8 KiB. Lower it
 * (`--max-message-size 8192`) to watch the check fail the way an unconfigured rsyslog does.
 */
const MAX_MESSAGE_SIZE = Number(values['max-message-size'] ?? 16 * 1024 * 1024)

let binary = findRsyslogd()
if (binary === undefined && values.install) {
  const outcome = installRsyslog()
  if (!outcome.installed) console.log(`SKIP: rsyslogd is not installed and could not be: ${outcome.reason}`)
  binary = findRsyslogd()
}
if (binary === undefined) {
  if (!values.install)
    console.log('SKIP: rsyslogd is not installed (apt-get install rsyslog, or pass --install)')
  process.exit(EXIT_SKIP)
}

const seed = values.seed === undefined ? Date.now() % 1_000_000 : Number(values.seed)
const plan = values.quick
  ? { sessions: 2, killsPerSession: 4, pads: ['1 KB', '100 KB', '3 MB', '1 KB'] as PadName[] }
  : {
      sessions: 4,
      killsPerSession: 6,
      pads: ['1 KB', '100 KB', '3 MB', '6 MB', '1 KB', '100 KB'] as PadName[],
    }
const work = mkdtempSync(join(tmpdir(), 'sessiontape-shipper-e2e-'))
const sessionsDir = join(work, 'sessions')
mkdirSync(sessionsDir, { mode: 0o700 })
const started = Date.now()

const rsyslog = await startRsyslog({
  binary,
  workDir: join(work, 'rsyslog'),
  glob: join(sessionsDir, '*'),
  maxMessageSize: MAX_MESSAGE_SIZE,
})
let log: DriveLog
try {
  log = await drive({ sessionsDir, ...plan, seed })
  await settle(rsyslog.outputPath)
} finally {
  await rsyslog.stop()
}
const result = compare(sessionsDir, rsyslog.outputPath)
const seconds = (Date.now() - started) / 1000

if (values.json) {
  console.log(JSON.stringify({ seed, seconds, rsyslog: rsyslogVersion(binary), log, result }, null, 2))
} else {
  console.log(report(result, log, rsyslogVersion(binary), seconds))
}
if (values.keep) console.log(`kept: ${work}`)
else rmSync(work, { recursive: true, force: true })
process.exitCode = result.ok && log.problems.length === 0 ? 0 : 1

/** Waits until the shipper delivered every terminated line, or its output stopped growing. */
async function settle(outputPath: string): Promise<void> {
  const expected = expectedLines(sessionsDir)
  let lastSize = -1
  let idleSince = Date.now()
  for (;;) {
    let size = 0
    try {
      size = statSync(outputPath).size
    } catch {
      // Not created yet: nothing shipped so far.
    }
    if (size !== lastSize) {
      lastSize = size
      idleSince = Date.now()
      if (shippedLineCount(outputPath) >= expected) {
        // Everything is there; a little longer, so a duplicate still in flight would show up too.
        await sleep(2000)
        return
      }
    }
    if (Date.now() - idleSince > SETTLE_IDLE_MS) return
    await sleep(250)
  }
}

function bucket(bytes: number): string {
  if (bytes < 10_000) return 'under 10 KB'
  if (bytes < 1_000_000) return '10 KB – 1 MB'
  if (bytes < 4_000_000) return '1 MB – 4 MB'
  return '4 MB and more'
}

function report(result: Comparison, log: DriveLog, version: string, seconds: number): string {
  const kills = log.cycles.filter((c) => c.killedAfterMs !== null).length
  const torn = log.cycles.filter((c) => c.tornAfter).length
  const rows = result.sessions.map((s) => [
    s.file,
    s.lines,
    s.records,
    s.otherLines,
    s.recoveredRecords,
    s.shippedLines,
    s.lost,
    s.duplicated,
    s.fragments,
    s.outOfOrder,
    s.identical ? 'yes' : 'NO',
    `${(s.largestRecordBytes / 1e6).toFixed(2)} MB`,
  ])
  const sum = (key: keyof Comparison['sessions'][number]): number =>
    result.sessions.reduce((total, s) => total + (s[key] as number), 0)
  rows.push([
    'total',
    sum('lines'),
    sum('records'),
    sum('otherLines'),
    sum('recoveredRecords'),
    sum('shippedLines'),
    sum('lost'),
    sum('duplicated'),
    sum('fragments'),
    sum('outOfOrder'),
    result.sessions.every((s) => s.identical) ? 'yes' : 'NO',
    `${(Math.max(0, ...result.sessions.map((s) => s.largestRecordBytes)) / 1e6).toFixed(2)} MB`,
  ])
  const header = [
    'transcript',
    'lines',
    'records',
    'torn/damaged',
    'recovered',
    'shipped',
    'lost',
    'duplicated',
    'fragments',
    'out of order',
    'identical',
    'largest record',
  ]
  const table = [header, ...rows].map((row) => row.map(String))
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)))
  const lines = table.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  )
  const sizes = new Map<string, { count: number; max: number }>()
  for (const size of result.recordSizes) {
    const entry = sizes.get(bucket(size)) ?? { count: 0, max: 0 }
    sizes.set(bucket(size), { count: entry.count + 1, max: Math.max(entry.max, size) })
  }
  let text = `rsyslog ${version} (imfile, glob ${join('<sessions>', '*')}, maxMessageSize ${MAX_MESSAGE_SIZE}), seed ${seed}, ${seconds.toFixed(1)} s\n`
  text += `${log.cycles.length} agent runs, ${kills} SIGKILLed (${torn} left a torn tail), ${log.repairs.length} repair(s); pads: ${Object.entries(
    PADS,
  )
    .map(([name, n]) => `${name}=${n}`)
    .join(', ')}\n\n`
  text += `${lines.join('\n')}\n\n`
  text += `record sizes: ${[...sizes.entries()].map(([name, { count, max }]) => `${name}: ${count} (largest ${max} B)`).join('; ')}\n`
  text += `lines shipped from files that are not transcripts: ${result.nonTranscriptLines}${result.nonTranscriptFiles.length > 0 ? ` (${result.nonTranscriptFiles.join(', ')})` : ''}\n`
  for (const r of log.repairs) {
    const summary = r.output
      .split('\n')
      .filter((line) => /^\S.*: (repaired|nothing)|^ {2}(appended|repaired copy):/.test(line))
      .map((line) => line.trim())
      .join(' | ')
    text += `repair (${r.kind}) of ${r.session}: exit ${r.code}; ${summary}\n`
  }
  for (const problem of log.problems) text += `PROBLEM: ${problem}\n`
  text +=
    result.ok && log.problems.length === 0
      ? 'PASS: every line shipped exactly once, in order, whole\n'
      : 'FAIL\n'
  return text
}
