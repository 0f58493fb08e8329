// Where the time goes while big records are written: times every RecordQueue.nextChunk of 100 KB or more
// (the task that escapes and encodes one slice of a big record), every record() call, every event-loop
// lag (a 1 ms interval) and every GC pause, for the `huge` workload's records recorded by one recorder
// with room for them in its queue. The write bench gives the side-by-side table; this gives the per-task
// figures behind it.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/huge-tasks.ts
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'

import { createRecorder } from '../src/index.js'
import { RecordQueue } from '../src/record-queue.js'
import { chatData, type HugeKind, hugeData } from './records.js'

const RECORDS: ReadonlyArray<readonly [HugeKind, number]> = [
  ['base64', 10],
  ['text', 10],
  ['base64', 50],
  ['text', 50],
  ['base64', 100],
]

const chunkMs: number[] = []
// Wrapped on the prototype, and always called with `.call(this)`.
// eslint-disable-next-line @typescript-eslint/unbound-method
const nextChunk = RecordQueue.prototype.nextChunk
RecordQueue.prototype.nextChunk = function timed(this: RecordQueue, maxChars: number) {
  const start = performance.now()
  const chunk = nextChunk.call(this, maxChars)
  if (chunk !== null && chunk.buffer.length >= 100_000) chunkMs.push(performance.now() - start)
  return chunk
}
const gcMs: number[] = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs.push(entry.duration)
}).observe({ entryTypes: ['gc'] })

for (const [kind, mb] of RECORDS) hugeData(kind, mb)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-huge-tasks-'))
const rec = createRecorder({ dir, sessionId: 'huge-tasks', maxQueueBytes: 256 * 1024 * 1024 })
await rec.ready()

const lagMs: number[] = []
let last = performance.now()
const timer = setInterval(() => {
  const now = performance.now()
  lagMs.push(now - last)
  last = now
}, 1)
const callMs: number[] = []
const timed = (type: string, data: object) => {
  const start = performance.now()
  rec.record(type, data)
  callMs.push(performance.now() - start)
}
const bigCallMs: number[] = []
let i = 0
for (const [kind, mb] of RECORDS) {
  for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
  const start = performance.now()
  rec.record('tool_result', hugeData(kind, mb))
  bigCallMs.push(performance.now() - start)
  for (let round = 0; round < 50 + 2 * mb; round++) {
    for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
await rec.close()
clearInterval(timer)
fs.rmSync(dir, { recursive: true, force: true })

function quantile(values: readonly number[], q: number): string {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(2)
}
const row = (name: string, values: readonly number[]) =>
  `| ${name} | ${values.length} | ${quantile(values, 0.5)} | ${quantile(values, 0.99)} | ${quantile(values, 1)} |`
console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
)
console.log('| ms | count | p50 | p99 | max |')
console.log('|:---|---:|---:|---:|---:|')
console.log(row('record() of a big record', bigCallMs))
console.log(row('record() of a chat record meanwhile', callMs))
console.log(row('write task of a big record (escape + encode)', chunkMs))
console.log(row('GC pause', gcMs))
console.log(row('event-loop lag (1 ms interval)', lagMs))
