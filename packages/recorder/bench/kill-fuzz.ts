// kill -9 fuzz of the recorder's write core: children record, flush and resume one session after another
// and are killed with SIGKILL at random moments (from their first milliseconds inside createRecorder to
// seconds into recording). After every child the transcript is checked: append-only since the previous
// child ended, every acknowledged record there exactly once, no uuid twice, no reader problem but torn
// lines named by a `recovered` record (or, after a kill, the damage after the last record awaiting its
// resume), and the next resume got the lock at once. Not part of the test suite: it takes minutes.
//
// Run (from packages/recorder): pnpm bench:kill-fuzz [-- --kills 1000] [--seed S] [--jobs 2] [--dir D] [--keep]
// Replay one case of a run:     pnpm bench:kill-fuzz -- --seed S --case N
// Exit code 1 on any failure; each failing case's directory is kept and printed (failure-child-N.json explains it).
import { execFileSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import { type CaseOutcome, runCase } from './kill-fuzz-case.js'
import { formatSummary, Tally } from './kill-fuzz-tally.js'

const DEFAULT_KILLS = 1000
// Two lanes: the machines this runs on have two cores, and each lane is mostly a child starting up.
const DEFAULT_JOBS = 2
// Failing cases past this many are counted but their directories removed: a systematic bug must not fill the disk.
const MAX_KEPT_FAILURES = 20
const PROGRESS_EVERY_KILLS = 50

const { values } = parseArgs({
  // `pnpm bench:kill-fuzz -- --kills 5` hands the script a literal `--` first.
  args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
  options: {
    kills: { type: 'string' },
    seed: { type: 'string' },
    jobs: { type: 'string' },
    dir: { type: 'string' },
    case: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})

function integerOption(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`Expected \`--${name}\` to be an integer ≥ ${min}, got \`${raw}\` (${typeof raw})`)
  }
  return value
}

const kills = integerOption('kills', values.kills, DEFAULT_KILLS, 1)
const seed = integerOption('seed', values.seed, randomInt(0, 2 ** 32), 0) >>> 0
const jobs = integerOption('jobs', values.jobs, DEFAULT_JOBS, 1)
const onlyCase = values.case === undefined ? null : integerOption('case', values.case, 0, 0)
const root = values.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-kill-fuzz-'))
fs.mkdirSync(root, { recursive: true })

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}
const commit = git('rev-parse', '--short', 'HEAD') ?? '(not a git checkout)'
const dirty = (git('status', '--porcelain', '--', 'src') ?? '').split('\n').filter(Boolean).length

console.log(
  `kill fuzz: seed ${seed}, ${onlyCase === null ? `${kills} kills` : `case ${onlyCase} only`}, ${onlyCase === null ? jobs : 1} lane(s), ` +
    `dir ${root}, sources ${path.resolve('src')} at commit ${commit}${dirty > 0 ? ` + ${dirty} uncommitted change(s) under src/` : ''}`,
)

const total = new Tally()
const failures: string[] = []
const kept: string[] = []
const createSamples: number[] = []
let nextCase = onlyCase ?? 0
let killsSoFar = 0
let nextProgress = PROGRESS_EVERY_KILLS
const started = Date.now()

// Median of the last createRecorder durations the children reported; 30 ms until there are some.
function createMs(): number {
  if (createSamples.length === 0) return 30
  const sorted = [...createSamples].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]!
}

function collect(outcome: CaseOutcome): void {
  total.add(outcome.tally)
  failures.push(...outcome.failures)
  if (outcome.keptDir === null) return
  if (outcome.failures.length === 0 || kept.length < MAX_KEPT_FAILURES) kept.push(outcome.keptDir)
  else fs.rmSync(outcome.keptDir, { recursive: true, force: true })
}

async function lane(): Promise<void> {
  while (onlyCase !== null ? nextCase === onlyCase : killsSoFar < kills) {
    const index = nextCase++
    const outcome = await runCase({
      root,
      seed,
      index,
      wantsMoreKills: () => onlyCase !== null || killsSoFar < kills,
      createMs,
      onCreateMs: (ms) => {
        createSamples.push(ms)
        if (createSamples.length > 101) createSamples.shift()
      },
      onKill: () => {
        killsSoFar++
        if (killsSoFar < nextProgress) return
        nextProgress += PROGRESS_EVERY_KILLS
        const seconds = ((Date.now() - started) / 1000).toFixed(0)
        console.error(`  ${killsSoFar} kills, ${seconds} s, ${failures.length} failure(s) so far`)
      },
      keepAll: values.keep,
    })
    collect(outcome)
  }
}

async function main(): Promise<void> {
  await Promise.all(Array.from({ length: onlyCase === null ? jobs : 1 }, () => lane()))
  console.log(`\n${formatSummary(total, Date.now() - started)}\n`)
  if (failures.length === 0) {
    if (!values.keep && values.dir === undefined) fs.rmSync(root, { recursive: true, force: true })
    console.log(`PASS: seed ${seed}, no failure.`)
    return
  }
  console.log(`FAIL: seed ${seed}, ${failures.length} failure(s) in ${total.failedCases} case(s):`)
  for (const failure of failures.slice(0, 40)) console.log(`  - ${failure}`)
  console.log('Kept (failure-child-N.json in each explains it; --seed S --case N replays it):')
  for (const dir of kept) console.log(`  ${dir}`)
  process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
