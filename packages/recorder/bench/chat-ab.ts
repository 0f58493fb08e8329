// Same-process A/B of two checkouts of the recorder on the write bench's chat workload (20,000 ~1 KB records
// in bursts of 200, setImmediate between bursts, flush() at the end). Wall time on a shared VM is too noisy
// for a 5 % question (six rounds at load ~1 gave throughput ratios 0.68–1.24), so this measures what holds
// still: many rounds, the two sides interleaved A B B A … in one process so a busy machine slows both alike,
// and the ratios taken per round (B over A, each against its neighbour) — their median with its spread
// (interquartile range) and a bootstrap 95 % confidence interval. Beside wall time: the CPU time per record
// (process.cpuUsage(): every thread of the process — the caller, the write loop, the threadpool's writes,
// V8's GC helpers) and the event loop's utilization while it ran, which a preempted process does not inflate.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/chat-ab.ts <recorder dir A> <recorder dir B> [rounds]
// e.g. A = a copy of the commit before a change (`git archive <rev> packages/recorder | tar -x -C /tmp/a`, with
// a node_modules beside its package.json), B = this package's directory (`.`). Default 40 rounds (~2–4 min).
// Both sides share the process's heap, JIT and dependency modules: a difference in garbage made or in code
// paths warmed shows on both sides at once and reads smaller here than between two processes — compare with
// bench/chat-processes.ts (docs/benchmarks.md, "Stop 33").
import os from 'node:os'

import { chatRun, loadRecorder, printComparison, READING, RECORDS, type Run } from './chat-run.js'

const [dirA, dirB, roundsArg] = process.argv.slice(2)
if (dirA === undefined || dirB === undefined)
  throw new TypeError('Usage: chat-ab.ts <recorder dir A> <recorder dir B> [rounds]')
const rounds = Number(roundsArg ?? 40)
if (!Number.isInteger(rounds) || rounds < 4)
  throw new TypeError(`Expected rounds to be an integer of at least 4, got ${roundsArg}`)
const WARMUP = 2

const sides = { A: await loadRecorder(dirA), B: await loadRecorder(dirB) }

const loadAtStart = os.loadavg()[0]!
const started = Date.now()
const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] }
for (let round = 0; round < rounds + WARMUP; round++) {
  // A B, then B A: each side runs first as often as second.
  const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)
  for (const side of order) {
    const result = await chatRun(sides[side])
    if (round >= WARMUP) runs[side].push(result)
  }
  process.stderr.write('.')
}
process.stderr.write('\n')

console.log(
  `chat A/B — Node ${process.version}, ${os.cpus().length} CPUs, ${rounds} rounds (+${WARMUP} warm-up) of ` +
    `${RECORDS} records per side, interleaved A B / B A, ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
    `load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`,
)
console.log(`A ${dirA}\nB ${dirB}\n`)
printComparison(runs.A, runs.B, 'round')
console.log(READING)
