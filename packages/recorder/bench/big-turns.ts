// Where the longest loop stall of the `big` workload comes from: the workload of the write bench (40 records
// of ~2.5 MB base64 among chat records, 200 records per loop turn), one variant in this process, with a
// timeline of what ran — each burst of record() calls, each chunk the writer produced (RecordQueue.nextChunk:
// batches, slices of a held string), each walk slice of a record handed over, each GC pause — and the
// event-loop delay as the write bench measures it (monitorEventLoopDelay, 1 ms resolution). For the longest
// gaps between two ticks of a 1 ms timer it prints what ran inside them.
//
// Like the write bench, the process first runs the quick workload through a writer of its own, unmeasured
// (`--cold`: not), so that V8 has compiled the code it measures. On Linux it also prints, for each of the
// longest gaps, how long the loop's thread waited for a core in it (from /proc: the runqueue wait of
// schedstat), and the CPU time of each thread of the process while the workload ran: in a cold process
// V8's compiler threads take ~60 ms of CPU in the 100 ms of bursts, on the two cores the loop needs.
//
// It first prints the floors of a loop turn, each the minimum of many repetitions (so a busy machine's
// preemptions drop out): JSON.stringify of one big record with its envelope, of a turn's 199 chat records,
// escaping the big record's string in the writer's 64 Ki pieces, testing those pieces for a character to
// escape (what the writer does first), and encoding the escaped text.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/big-turns.ts [ours|ours-handover|stringify-only] [--cold]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

import { createRecorder } from '../src/index.js'
import { mayHoldString } from '../src/write/serialize/held-scan.js'
import { needsEscape } from '../src/write/serialize/held-text.js'
import { JsonWalk, stringifyHolding } from '../src/write/serialize/json-walk.js'
import { RecordQueue } from '../src/write/queue/record-queue.js'
import { bigData, chatData, envelopeLine } from './records.js'
import { drive, prepare, warmUp } from './workloads.js'
import { openWriter, type Variant } from './writers.js'

const variant = (process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'ours') as Variant
const cold = process.argv.includes('--cold')
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-cb',
}
// Bytes of the buffers allocated outside Node's pool (each is external memory to V8 until collected).
let slowBytes = 0
let slowCount = 0
const allocUnsafeSlow = Buffer.allocUnsafeSlow.bind(Buffer)
Buffer.allocUnsafeSlow = (size: number) => {
  slowBytes += size
  slowCount++
  return allocUnsafeSlow(size)
}

interface Span {
  readonly label: string
  readonly start: number
  readonly ms: number
}
const spans: Span[] = []
const span = (label: string, start: number) => spans.push({ label, start, ms: performance.now() - start })

// eslint-disable-next-line @typescript-eslint/unbound-method
const nextChunk = RecordQueue.prototype.nextChunk
RecordQueue.prototype.nextChunk = function timed(this: RecordQueue, maxBytes: number, deadline?: number) {
  const start = performance.now()
  const chunk = nextChunk.call(this, maxBytes, deadline)
  if (chunk !== null)
    span(`chunk ${(chunk.buffer.length / 1024).toFixed(0)} KiB, ${chunk.completes} rec`, start)
  return chunk
}
// The synchronous part of each asynchronous fs call the recorder makes: handing the request to libuv's
// threadpool (the recorder reaches these through the module object at call time).
for (const name of ['read', 'write', 'fdatasync', 'fsync', 'fstat'] as const) {
  const target = fs as unknown as Record<string, (...args: unknown[]) => unknown>
  const original = target[name]!
  target[name] = function submitted(this: unknown, ...args: unknown[]) {
    const start = performance.now()
    try {
      return original.apply(this, args)
    } finally {
      span(`fs.${name} handed to the threadpool`, start)
    }
  }
}
// eslint-disable-next-line @typescript-eslint/unbound-method
const packAhead = RecordQueue.prototype.packAhead
RecordQueue.prototype.packAhead = function timed(this: RecordQueue, maxBytes: number, deadline?: number) {
  const start = performance.now()
  packAhead.call(this, maxBytes, deadline)
  span('pack ahead', start)
}
// eslint-disable-next-line @typescript-eslint/unbound-method
const step = JsonWalk.prototype.step
JsonWalk.prototype.step = function timed(this: JsonWalk, deadline: number) {
  const start = performance.now()
  const done = step.call(this, deadline)
  if (deadline !== Infinity) span('walk slice', start)
  return done
}

function fastest(runs: number, work: () => unknown, digits = 2): string {
  let least = Infinity
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    work()
    least = Math.min(least, performance.now() - start)
  }
  return least.toFixed(digits)
}
{
  const big = bigData(0)
  const blob = (big.output as { base64: string }).base64
  const PIECE = 64 * 1024
  const pieces: string[] = []
  for (let i = 0; i < blob.length; i += PIECE) pieces.push(blob.slice(i, i + PIECE))
  const escaped = pieces.map((piece) => JSON.stringify(piece).slice(1, -1))
  const out = Buffer.allocUnsafeSlow(blob.length + 1024)
  console.log(
    `floors (ms, fastest of 50–200): JSON.stringify of the 2.5 MB record ${fastest(50, () => envelopeLine('s', null, 'tool_result', big))}, ` +
      `of 199 chat records ${fastest(200, () => {
        for (let i = 0; i < 199; i++) envelopeLine('s', null, 'assistant', chatData(i))
      })}; ` +
      `escaping its string in 64 Ki pieces ${fastest(200, () => pieces.map((piece) => JSON.stringify(piece)))}, ` +
      `testing those pieces for a character to escape (what the writer does: base64 has none) ${fastest(200, () => pieces.map(needsEscape))}, ` +
      `encoding the escaped text ${fastest(200, () => escaped.reduce((at, text) => at + out.write(text, at), 0))}`,
  )
  // What record() itself costs for the big record, beyond the caller's own JSON.stringify above: the scan
  // for long strings, the snapshot that holds the string (its walk), and the whole call (envelope, checks,
  // queue), copied and handed over; written before the workload starts (fsync 'never'), and left out of its
  // timeline.
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-big-turns-'))
  const rec = createRecorder({ dir: floorDir, fsync: 'never', meta: false })
  await rec.ready()
  console.log(
    `record() of the 2.5 MB record (ms, fastest of 20): scan for long strings ${fastest(20, () => mayHoldString(big), 4)}, ` +
      `snapshot holding the string ${fastest(20, () => stringifyHolding(big), 4)}, ` +
      `the whole call copied ${fastest(20, () => rec.record('tool_result', big), 4)}, ` +
      `handed over ${fastest(20, () => rec.record('tool_result', big, { handOver: true }), 4)}`,
  )
  await rec.close()
  fs.rmSync(floorDir, { recursive: true, force: true })
  spans.length = 0
  slowBytes = 0
  slowCount = 0
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-big-turns-'))
prepare('big', false)
if (!cold) {
  await warmUp('big', () => openWriter(variant, path.join(dir, 'warm-up')))
  spans.length = 0
  slowBytes = 0
  slowCount = 0
}
const writer = await openWriter(variant, dir)
// Bursts: wrap write() to time the run of calls between two yields.
let burstStart = -1
const inner = writer.write.bind(writer)
writer.write = (type, data, handOver) => {
  if (burstStart < 0) {
    burstStart = performance.now()
    // The burst is synchronous: a microtask runs right after it.
    queueMicrotask(() => {
      span('burst of record()', burstStart)
      burstStart = -1
    })
  }
  inner(type, data, handOver)
}
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0
    spans.push({ label: `GC ${GC_KINDS[kind] ?? kind}`, start: entry.startTime, ms: entry.duration })
  }
})
gcObserver.observe({ entryTypes: ['gc'] })
// Linux: how long the loop's thread has waited for a core (ms), and each thread's CPU time (ms).
const schedstat = (tid: number | string) =>
  fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')
const hasSchedstat = (() => {
  try {
    return schedstat(process.pid).length >= 2
  } catch {
    return false
  }
})()
const runqueueWait = () => (hasSchedstat ? Number(schedstat(process.pid)[1]) / 1e6 : NaN)
const threadCpu = () =>
  new Map(
    hasSchedstat
      ? fs.readdirSync('/proc/self/task').map((tid) => [tid, Number(schedstat(tid)[0]) / 1e6] as const)
      : [],
  )
const ticks: number[] = []
const waits: number[] = []
const timer = setInterval(() => {
  ticks.push(performance.now())
  waits.push(runqueueWait())
}, 1)
const delay = monitorEventLoopDelay({ resolution: 1 })
await new Promise((resolve) => setTimeout(resolve, 20))
delay.enable()
const cpuBefore = threadCpu()
const started = performance.now()
await drive('big', writer, false)
const burstsMs = performance.now() - started
const cpuAfterBursts = threadCpu()
await writer.finish()
delay.disable()
const elapsed = performance.now() - started
clearInterval(timer)
await new Promise((resolve) => setTimeout(resolve, 50))
gcObserver.disconnect()
await writer.close()
fs.rmSync(dir, { recursive: true, force: true })

const gaps = ticks
  .slice(1)
  .map((t, i) => ({ from: ticks[i]!, to: t, ms: t - ticks[i]!, waited: waits[i + 1]! - waits[i]! }))
gaps.sort((a, b) => b.ms - a.ms)
console.log(
  `${variant}: big workload ${elapsed.toFixed(0)} ms, loop delay max ${(delay.max / 1e6).toFixed(1)} ms, ` +
    `p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; load average ${os.loadavg()[0]!.toFixed(1)}; ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
)
const total = (label: string) =>
  spans.filter((s) => s.label.startsWith(label)).reduce((sum, s) => sum + s.ms, 0)
const most = (label: string) =>
  Math.max(0, ...spans.filter((s) => s.label.startsWith(label)).map((s) => s.ms))
console.log(`  Buffer.allocUnsafeSlow: ${slowCount} buffers, ${(slowBytes / 2 ** 20).toFixed(0)} MiB`)
const count = (label: string) => spans.filter((s) => s.label.startsWith(label)).length
for (const label of [
  'burst of record()',
  'chunk',
  'walk slice',
  'GC scavenge',
  'GC mark-compact',
  'GC incremental',
  'GC weak-cb',
  'fs.read handed to the threadpool',
  'fs.write handed to the threadpool',
])
  console.log(
    `  ${label}: ${count(label)}, total ${total(label).toFixed(1)} ms, longest ${most(label).toFixed(2)} ms`,
  )
for (const gap of gaps.slice(0, 5)) {
  const inside = spans
    .filter(
      (s) => s.start < gap.to && s.start + s.ms > gap.from && (s.ms >= 0.1 || !s.label.startsWith('fs.')),
    )
    .sort((a, b) => a.start - b.start)
    .map((s) => `${s.label} ${s.ms.toFixed(2)}`)
  const waited = hasSchedstat ? `, waiting for a core ${gap.waited.toFixed(1)} ms` : ''
  console.log(
    `  gap ${gap.ms.toFixed(1)} ms at ${(gap.from - started).toFixed(0)} ms${waited}: ${inside.join(' | ')}`,
  )
}
if (hasSchedstat) {
  const busy = [...cpuAfterBursts]
    .map(([tid, ms]) => ({ tid, ms: ms - (cpuBefore.get(tid) ?? 0) }))
    .filter((thread) => thread.ms >= 1)
  const loop = busy.find((thread) => thread.tid === String(process.pid))
  const others = busy.filter((thread) => thread !== loop)
  console.log(
    `  CPU while the ${burstsMs.toFixed(0)} ms of bursts ran: loop thread ${(loop?.ms ?? 0).toFixed(0)} ms, ` +
      `${others.length} other threads ${others.reduce((sum, thread) => sum + thread.ms, 0).toFixed(0)} ms ` +
      `(${others.map((thread) => thread.ms.toFixed(0)).join(', ')})`,
  )
}
