// One measurement in its own process: `run-variant.ts <variant> <workload> <dir> [--quick] [--cold]`.
// `--cold`: measure the process's first run of the workload (by default its quick version runs first: see warmUp).
// `--mark`: print `measured phase begins` / `measured phase ends` lines around it, to cut V8's own traces
// (`node --trace-gc-nvp`, which print to stdout too) to the measured phase.
// Prints one JSON line with the figures.
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'

import { createRecorder } from '../src/index.js'
import { installFsCounters } from './fs-counters.js'
import { drive, prepare, warmUp, type Workload } from './workloads.js'
import { openWriter, type Variant } from './writers.js'

const [variant, workload, dir] = process.argv.slice(2) as [Variant, Workload, string]
const quick = process.argv.includes('--quick')
const cold = process.argv.includes('--cold')
const mark = process.argv.includes('--mark')
const { counts, reset } = installFsCounters()

prepare(workload, quick)
// The recorder loads proper-lockfile with a dynamic import() on the first lock of the process, and Node's
// module loader reads those files synchronously (README guarantee 1): once per process, not per record. A
// first recorder, closed before the measured phase, takes that load out of it (on a busy machine the import
// could still be running when the workload starts, and its ~26 reads counted as the workload's).
const warm = createRecorder({ dir: path.join(dir, 'warm-up'), meta: false })
await warm.close()
if (!cold) {
  await warmUp(workload, () => openWriter(variant, path.join(dir, 'warm-up')))
  // What the warm-up left is collected, so that the measured phase starts from the same heap in every variant.
  ;(globalThis as { gc?: () => void }).gc?.()
}
const writer = await openWriter(variant, dir)
const delay = monitorEventLoopDelay({ resolution: 1 })
// Settle whatever the setup left running before the measured phase.
await new Promise((resolve) => setTimeout(resolve, 20))
// What the process holds before the measured phase: Node, the writer, and the workload's payloads (built by
// prepare(); the `big` workload builds its one 2.5 MB string on its first record). Peak RSS minus this is
// what recording them cost in memory.
const rssBeforeMb = process.memoryUsage.rss() / 2 ** 20
reset()
delay.enable()
if (mark) process.stdout.write('measured phase begins\n')
const start = performance.now()
const { records, callNs } = await drive(workload, writer, quick)
await writer.finish()
const elapsedMs = performance.now() - start
if (mark) process.stdout.write('measured phase ends\n')
delay.disable()
const hot = { ...counts }
await writer.close()

const totalCallNs = callNs.reduce((sum, ns) => sum + ns, 0n)
const sorted = [...callNs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
process.stdout.write(
  `${JSON.stringify({
    variant,
    workload,
    records,
    elapsedMs,
    recordsPerSec: (records / elapsedMs) * 1000,
    eldMaxMs: delay.max / 1e6,
    eldP99Ms: delay.percentile(99) / 1e6,
    syncCalls: hot.sync,
    writesPer1000: (hot.writes / records) * 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    rssBeforeMb,
    callUsMean: Number(totalCallNs) / callNs.length / 1000,
    callUsP50: Number(sorted[Math.floor(sorted.length * 0.5)] ?? 0n) / 1000,
    callUsP99: Number(sorted[Math.floor(sorted.length * 0.99)] ?? 0n) / 1000,
    callUsMax: Number(sorted.at(-1) ?? 0n) / 1000,
  })}\n`,
)
