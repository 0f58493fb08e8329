// The chat workload of the write bench as one measured run, and the statistics both chat comparisons print
// (bench/chat-ab.ts: two checkouts in one process; bench/chat-processes.ts: each in processes of its own).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import type { createRecorder } from '../src/index.js'
import { chatData } from './records.js'

export const RECORDS = 20_000
const BOOTSTRAP = 2_000

export type Create = typeof createRecorder
/** The recorder of the checkout whose package directory is `dir` (its sources, through tsx). */
export const loadRecorder = async (dir: string): Promise<Create> =>
  ((await import(pathToFileURL(path.resolve(dir, 'src/index.ts')).href)) as { createRecorder: Create })
    .createRecorder

export interface Run {
  /** Records per second, wall time from the first record() to flush()'s answer. */
  readonly rate: number
  /** record() call, median and mean, ns. */
  readonly p50: number
  readonly mean: number
  /** CPU time of the whole process per record, µs (user + system, all threads). */
  readonly cpu: number
  /** Event-loop utilization over the run (0–1). */
  readonly elu: number
  /**
   * Write calls for the run's 20,000 records: how many records each write waited for. Fewer, bigger writes
   * mean records queued longer, alive across more scavenges (docs/benchmarks.md, "Chat throughput and the
   * read before each write").
   */
  readonly writes: number
}
export const METRICS = ['rate', 'p50', 'mean', 'cpu', 'elu', 'writes'] as const

/** One chat run: 20,000 ~1 KB records in bursts of 200, setImmediate between bursts, flush() at the end. */
export async function chatRun(create: Create): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-chat-'))
  const rec = create({ dir, sessionId: 'bench-session' })
  await rec.ready()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const ns = new Float64Array(RECORDS)
  const cpuBefore = process.cpuUsage()
  const eluBefore = performance.eventLoopUtilization()
  const start = performance.now()
  for (let i = 0; i < RECORDS; i++) {
    const t = process.hrtime.bigint()
    rec.record(i % 2 === 0 ? 'user' : 'assistant', chatData(i))
    ns[i] = Number(process.hrtime.bigint() - t)
    if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
  }
  await rec.flush()
  const elapsed = performance.now() - start
  const cpu = process.cpuUsage(cpuBefore)
  const elu = performance.eventLoopUtilization(eluBefore).utilization
  const { writes } = rec.stats()
  await rec.close()
  fs.rmSync(dir, { recursive: true, force: true })
  ns.sort()
  return {
    rate: (RECORDS / elapsed) * 1000,
    p50: ns[RECORDS >> 1]!,
    mean: ns.reduce((sum, n) => sum + n, 0) / RECORDS,
    cpu: (cpu.user + cpu.system) / RECORDS,
    elu,
    writes,
  }
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low)
}

// A deterministic generator for the bootstrap (mulberry32), so a rerun of the same figures gives the same CI.
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 95 % bootstrap interval of the median of `values`. */
export function bootstrapMedian(values: readonly number[]): [number, number] {
  const next = random(20_261_125)
  const medians: number[] = []
  for (let b = 0; b < BOOTSTRAP; b++) {
    const sample = Array.from({ length: values.length }, () => values[Math.floor(next() * values.length)]!)
    medians.push(quantile(sample, 0.5))
  }
  return [quantile(medians, 0.025), quantile(medians, 0.975)]
}

const fmt = (value: number, digits: number) => value.toFixed(digits)
const DIGITS: Record<(typeof METRICS)[number], number> = {
  rate: 0,
  p50: 0,
  mean: 0,
  cpu: 2,
  elu: 3,
  writes: 0,
}
const LABEL: Record<(typeof METRICS)[number], string> = {
  rate: 'records/s',
  p50: 'record() p50 ns',
  mean: 'record() mean ns',
  cpu: 'CPU µs/record',
  elu: 'loop utilization',
  writes: 'write calls per run',
}

/** The comparison table: each figure's medians, and B/A per pair of runs with the 95 % CI of its median. */
export function printComparison(runsA: readonly Run[], runsB: readonly Run[], pairLabel: string): void {
  console.log(
    `| figure | A median [IQR] | B median [IQR] | B/A per ${pairLabel}: median [IQR] | 95 % CI of that median |`,
  )
  console.log('|:--|--:|--:|--:|--:|')
  for (const metric of METRICS) {
    const a = runsA.map((r) => r[metric])
    const b = runsB.map((r) => r[metric])
    const ratios = b.map((value, i) => value / a[i]!)
    const [low, high] = bootstrapMedian(ratios)
    const side = (values: number[]) =>
      `${fmt(quantile(values, 0.5), DIGITS[metric])} [${fmt(quantile(values, 0.25), DIGITS[metric])}–${fmt(quantile(values, 0.75), DIGITS[metric])}]`
    console.log(
      `| ${LABEL[metric]} | ${side(a)} | ${side(b)} | ${fmt(quantile(ratios, 0.5), 3)} [${fmt(quantile(ratios, 0.25), 3)}–${fmt(quantile(ratios, 0.75), 3)}] | ${fmt(low, 3)}–${fmt(high, 3)} |`,
    )
  }
}

export const READING =
  '\nRead: records/s higher is better; the others lower is better. "Within 5 %" holds for a figure when its ' +
  'CI lies inside 0.95–1.05 (throughput) or below 1.05 (times). Write calls are a mechanism, not a target.'

/**
 * Runs `script` (a bench file that answers `--child <dir> <runs>` with one JSON line) in processes of their
 * own, alternating the two sides (A B, then B A, …) for `pairs` pairs, and collects each side's answers.
 * Writes a dot per pair to stderr.
 */
export function inAlternatingProcesses<T>(
  script: string,
  dirs: { readonly A: string; readonly B: string },
  pairs: number,
  runs: number,
): Record<'A' | 'B', T[]> {
  const inChildProcess = (dir: string): T =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--conditions=@sessiontape/source', '--import', 'tsx', script, '--child', dir, String(runs)],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    ) as T
  const results: Record<'A' | 'B', T[]> = { A: [], B: [] }
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)
    for (const side of order) results[side].push(inChildProcess(dirs[side]))
    process.stderr.write('.')
  }
  process.stderr.write('\n')
  return results
}
