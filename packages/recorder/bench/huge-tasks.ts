// Where the time goes while big records are written, per record: the big records of the `huge` workload
// (2.5, 10, 50, 100 MB of base64 and of text) and of the `fields` workload (10⁵ small fields, 10⁵ small
// objects), each in the middle of chat records as in the write bench, recorded by one recorder with default
// options. Per big record: the time inside its record() call, when it was written, and the longest
// event-loop lag (a 1 ms interval) until then and over its whole phase (until the next big record, so a GC
// pause after the write counts too), and the longest GC pause in that phase. Overall: every chat record()
// call meanwhile, every RecordQueue.nextChunk of 100 KB or more (the task that escapes and encodes one
// slice of a big string), every step of the serializer of a handed-over record (one ~1 ms slice), every GC
// pause, every lag. The write bench gives the side-by-side table; this gives the figures behind it.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/huge-tasks.ts [--copy | --handover] [--queue-256m]
//   --copy: plain record(); --handover: the big records with `{ handOver: true }`; neither: both modes,
//   each in a child process of its own. --queue-256m: `maxQueueChars: 256 MiB` (room for a 100 MB record,
//   so the overflow policy never drains synchronously).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import { createRecorder } from '../src/index.js'
import { RecordQueue } from '../src/write/queue/record-queue.js'
import { JsonWalk } from '../src/write/serialize/json-walk.js'
import { chatData, hugeData, hugeMb } from './records.js'
import { FIELDS, HUGE, roundsAfter } from './workloads.js'

const queue256m = process.argv.includes('--queue-256m')
const modes = (['copy', 'handover'] as const).filter((mode) => process.argv.includes(`--${mode}`))

if (modes.length !== 1) {
  // Both modes (or a contradiction): each in a fresh process, so one's heap does not weigh on the other's.
  for (const mode of ['copy', 'handover'] as const)
    execFileSync(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        `--${mode}`,
        ...(queue256m ? ['--queue-256m'] : []),
      ],
      { stdio: 'inherit' },
    )
} else {
  await measure(modes[0]!)
}

async function measure(mode: 'copy' | 'handover'): Promise<void> {
  // The structures once each: the fields workload repeats them only to have more than one sample.
  const records = [...HUGE, ...FIELDS.slice(0, 2)]

  const chunkMs: number[] = []
  // Wrapped on the prototype, and always called with `.call(this)`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const nextChunk = RecordQueue.prototype.nextChunk
  RecordQueue.prototype.nextChunk = function timed(this: RecordQueue, maxBytes: number, deadline: number) {
    const start = performance.now()
    const chunk = nextChunk.call(this, maxBytes, deadline)
    if (chunk !== null && chunk.buffer.length >= 100_000) chunkMs.push(performance.now() - start)
    return chunk
  }
  const stepMs: number[] = []
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const step = JsonWalk.prototype.step
  JsonWalk.prototype.step = function timed(this: JsonWalk, deadline: number) {
    const start = performance.now()
    const done = step.call(this, deadline)
    stepMs.push(performance.now() - start)
    return done
  }
  const gcs: { readonly start: number; readonly ms: number }[] = []
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, ms: entry.duration })
  })

  for (const [kind, mb] of records) hugeData(kind, mb)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-huge-tasks-'))
  const rec = createRecorder({
    dir,
    sessionId: 'huge-tasks',
    ...(queue256m ? { maxQueueChars: 256 * 1024 * 1024 } : {}),
  })
  await rec.ready()
  // Observed from here: the GC that building the payloads caused is not the recorder's.
  gc.observe({ entryTypes: ['gc'] })

  interface Tracked {
    readonly name: string
    readonly mb: number
    readonly callMs: number
    readonly start: number
    // stats().recorded right after its record(): it is written once `persisted` reaches this.
    readonly recorded: number
    writtenMs: number | undefined
    lagUntilWritten: number
    lagInPhase: number
  }
  const tracked: Tracked[] = []
  const lagMs: number[] = []
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    const lag = now - last
    last = now
    lagMs.push(lag)
    const current = tracked.at(-1)
    if (current !== undefined) current.lagInPhase = Math.max(current.lagInPhase, lag)
    const { persisted } = rec.stats()
    for (const t of tracked) {
      if (t.writtenMs !== undefined) continue
      t.lagUntilWritten = Math.max(t.lagUntilWritten, lag)
      if (persisted >= t.recorded) t.writtenMs = now - t.start
    }
  }, 1)
  const callMs: number[] = []
  const timed = (type: string, data: object) => {
    const start = performance.now()
    rec.record(type, data)
    callMs.push(performance.now() - start)
  }
  let i = 0
  for (const [kind, mb] of records) {
    for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
    const data = hugeData(kind, mb)
    const start = performance.now()
    if (mode === 'handover') rec.record('tool_result', data, { handOver: true })
    else rec.record('tool_result', data)
    const callEnd = performance.now()
    tracked.push({
      name: kind === 'base64' || kind === 'text' ? `${kind} ${mb} MB` : kind,
      mb: hugeMb(kind, mb),
      callMs: callEnd - start,
      start,
      recorded: rec.stats().recorded,
      writtenMs: undefined,
      lagUntilWritten: 0,
      lagInPhase: 0,
    })
    const rounds = roundsAfter(kind, mb)
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < 10; k++) timed('assistant', chatData(i++))
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  await rec.close()
  const { overflowEvents, writes } = rec.stats()
  clearInterval(timer)
  gc.disconnect()
  RecordQueue.prototype.nextChunk = nextChunk
  JsonWalk.prototype.step = step
  fs.rmSync(dir, { recursive: true, force: true })

  const ms = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2))
  console.log(
    `\nmode ${mode}${mode === 'handover' ? ' (big records with { handOver: true })' : ' (plain record())'}, ` +
      `maxQueueChars ${queue256m ? '256 MiB' : 'default'} — Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}; ${writes} writes, ${overflowEvents} overflow events\n`,
  )
  console.log(
    '| big record | MB serialized | record() ms | written after ms | longest lag until written, ms | longest lag in its phase, ms | longest GC pause in its phase, ms |',
  )
  console.log('|:---|---:|---:|---:|---:|---:|---:|')
  tracked.forEach((t, index) => {
    // Its phase: from its record() to the next big record's (GC entries arrive late: matched by start time).
    const end = tracked[index + 1]?.start ?? Infinity
    const gcInPhase = gcs.filter((g) => g.start >= t.start && g.start < end).map((g) => g.ms)
    console.log(
      `| ${t.name} | ${t.mb.toFixed(1)} | ${ms(t.callMs)} | ${ms(t.writtenMs)} | ${ms(t.lagUntilWritten)} | ` +
        `${ms(t.lagInPhase)} | ${ms(Math.max(0, ...gcInPhase))} |`,
    )
  })

  const quantile = (values: readonly number[], q: number): string => {
    if (values.length === 0) return '—'
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(2)
  }
  const row = (name: string, values: readonly number[]) =>
    `| ${name} | ${values.length} | ${quantile(values, 0.5)} | ${quantile(values, 0.99)} | ${quantile(values, 1)} |`
  console.log('\n| ms | count | p50 | p99 | max |')
  console.log('|:---|---:|---:|---:|---:|')
  console.log(row('record() of a chat record meanwhile', callMs))
  console.log(row('write task of a big string (escape + encode, ≥ 100 KB)', chunkMs))
  console.log(row('serializer step of a handed-over record (JsonWalk.step)', stepMs))
  const gcMs = gcs.map((g) => g.ms)
  console.log(row('GC pause', gcMs))
  console.log(row('event-loop lag (time between 1 ms timer ticks)', lagMs))
}
