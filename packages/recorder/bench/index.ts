// Write-side benchmark of @sessiontape/recorder against the usual ways of writing a JSONL transcript.
// Every variant runs in its own child process (bench/run-variant.ts), once per workload and repetition,
// interleaved so machine noise spreads evenly; the table shows medians and ratios to the baselines.
//
// Run: pnpm --filter @sessiontape/recorder bench            (full: 3 repetitions, ~2-3 min)
//      pnpm --filter @sessiontape/recorder bench -- --quick (smaller workloads, 3 repetitions)
// Env: WRITE_BENCH_REPS (default 3); WRITE_BENCH_WORKLOADS / WRITE_BENCH_VARIANTS (comma lists) to run a subset;
//      WRITE_BENCH_BASE=<recorder package dir of an earlier commit> adds `ours-base` and `ours-base-handover`
//      (the same as `ours` and `ours-handover` with that build), side by side in the same run;
//      WRITE_BENCH_COLD=1 measures each process's first run of its workload (by default every process runs the
//      workload's quick version first, unmeasured, so that V8 has compiled the code it measures: see warmUp).
// The read-side benchmark is separate: node --conditions=@sessiontape/source --import tsx bench/read.ts
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { formatTable, median, type Result } from './table.js'
import { HANDS_OVER, WORKLOADS, type Workload } from './workloads.js'
import { BASE_VARIANTS, VARIANTS, type Variant } from './writers.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const quick = process.argv.includes('--quick')
const reps = Number(process.env.WRITE_BENCH_REPS ?? 3)
const cold = process.env.WRITE_BENCH_COLD === '1'
if (!Number.isInteger(reps) || reps < 1)
  throw new TypeError(`WRITE_BENCH_REPS must be a positive integer, got ${reps}`)

function runOnce(variant: Variant, workload: Workload): Result {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-bench-'))
  try {
    const output = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--conditions=@sessiontape/source',
        '--import',
        'tsx',
        path.join(here, 'run-variant.ts'),
        variant,
        workload,
        dir,
        ...(quick ? ['--quick'] : []),
        ...(cold ? ['--cold'] : []),
      ],
      { cwd: path.dirname(here), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    )
    return JSON.parse(output.trim().split('\n').at(-1)!) as Result
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const workloads = subset('WRITE_BENCH_WORKLOADS', WORKLOADS)
// The base build's variants run when asked for, or by default when a base is given.
const variants = subset(
  'WRITE_BENCH_VARIANTS',
  process.env.WRITE_BENCH_BASE === undefined && process.env.WRITE_BENCH_VARIANTS === undefined
    ? VARIANTS.filter((v) => !BASE_VARIANTS.has(v))
    : VARIANTS,
)
if (variants.some((v) => BASE_VARIANTS.has(v)) && process.env.WRITE_BENCH_BASE === undefined)
  throw new TypeError('WRITE_BENCH_VARIANTS: ours-base needs WRITE_BENCH_BASE (a recorder package directory)')

function subset<T extends string>(name: string, all: readonly T[]): readonly T[] {
  const wanted = process.env[name]?.split(',').filter(Boolean)
  if (wanted === undefined || wanted.length === 0) return all
  const unknown = wanted.filter((w) => !(all as readonly string[]).includes(w))
  if (unknown.length > 0)
    throw new TypeError(`${name}: unknown ${unknown.join(', ')} (known: ${all.join(', ')})`)
  return all.filter((item) => wanted.includes(item))
}

const started = Date.now()
// The machine may be shared: the load average is printed with the table, at the start and at the end.
const loadAtStart = os.loadavg()[0]!
const runs = new Map<string, Result[]>()
for (let rep = 0; rep < reps; rep++) {
  for (const workload of workloads) {
    for (const variant of variants) {
      // It would measure `ours` again.
      if ((variant === 'ours-handover' || variant === 'ours-base-handover') && !HANDS_OVER.has(workload))
        continue
      const key = `${workload}/${variant}`
      const list = runs.get(key) ?? []
      list.push(runOnce(variant, workload))
      runs.set(key, list)
      process.stderr.write('.')
    }
  }
}
process.stderr.write('\n')

const medians = new Map<string, Result>()
for (const [key, list] of runs) medians.set(key, median(list))

console.log(
  `@sessiontape/recorder write bench — Node ${process.version}, ${os.cpus().length} CPUs, ${os.platform()} ${os.release()}, ` +
    `${quick ? 'quick' : 'full'} workloads, ${cold ? 'cold processes' : 'each process warmed up by the quick workload first'}, median of ${reps} runs per cell, ${((Date.now() - started) / 1000).toFixed(0)} s, ` +
    `load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end` +
    `${process.env.WRITE_BENCH_BASE === undefined ? '' : `; ours-base = ${process.env.WRITE_BENCH_BASE}`}\n`,
)
console.log(formatTable(medians, workloads, variants))
