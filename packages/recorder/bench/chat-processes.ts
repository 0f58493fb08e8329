// The chat workload of two checkouts compared across processes: each process loads one recorder only (as an
// agent does) and runs the workload `runs` times; processes of A and B alternate (A B, then B A, …), and the
// ratios are taken per pair of neighbouring processes — their median with its bootstrap 95 % CI, as in
// bench/chat-ab.ts. Nothing is shared between the sides: not the heap (one side's garbage collected while
// the other runs), not the JIT's feedback, not the dependency modules. bench/chat-ab.ts (both in one process)
// reads a difference smaller than this does; docs/benchmarks.md ("Stop 33") has both.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/chat-processes.ts <recorder dir A> <recorder dir B> [pairs] [runs]
// (default 10 pairs of processes, 30 runs each after 3 warm-up runs; ~2 min on a quiet 2-core machine).
import os from 'node:os'
import { fileURLToPath } from 'node:url'

import {
  chatRun,
  inAlternatingProcesses,
  loadRecorder,
  METRICS,
  printComparison,
  quantile,
  READING,
  RECORDS,
  type Run,
} from './chat-run.js'

const WARMUP = 3

if (process.argv[2] === '--child') {
  // One side in a process of its own: the median of each figure over its runs, as one JSON line.
  const [dir, runsArg] = process.argv.slice(3) as [string, string]
  const create = await loadRecorder(dir)
  const runs: Run[] = []
  for (let i = 0; i < WARMUP + Number(runsArg); i++) {
    const run = await chatRun(create)
    if (i >= WARMUP) runs.push(run)
  }
  const median = Object.fromEntries(
    METRICS.map((m) => [
      m,
      quantile(
        runs.map((r) => r[m]),
        0.5,
      ),
    ]),
  )
  process.stdout.write(`${JSON.stringify(median)}\n`)
} else {
  const [dirA, dirB, pairsArg, runsArg] = process.argv.slice(2)
  if (dirA === undefined || dirB === undefined)
    throw new TypeError('Usage: chat-processes.ts <recorder dir A> <recorder dir B> [pairs] [runs]')
  const pairs = Number(pairsArg ?? 10)
  const runs = Number(runsArg ?? 30)
  if (!Number.isInteger(pairs) || pairs < 4)
    throw new TypeError(`Expected pairs to be an integer of at least 4, got ${pairsArg}`)
  if (!Number.isInteger(runs) || runs < 1)
    throw new TypeError(`Expected runs to be a positive integer, got ${runsArg}`)
  const loadAtStart = os.loadavg()[0]!
  const started = Date.now()
  const results = inAlternatingProcesses<Run>(
    fileURLToPath(import.meta.url),
    { A: dirA, B: dirB },
    pairs,
    runs,
  )
  console.log(
    `chat across processes — Node ${process.version}, ${os.cpus().length} CPUs, ${pairs} pairs of processes, ` +
      `each the median of ${runs} runs (+${WARMUP} warm-up) of ${RECORDS} records, alternating A B / B A, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s; load average ${loadAtStart.toFixed(1)} at the start, ` +
      `${os.loadavg()[0]!.toFixed(1)} at the end`,
  )
  console.log(`A ${dirA}\nB ${dirB}\n`)
  printComparison(results.A, results.B, 'pair')
  console.log(READING)
}
