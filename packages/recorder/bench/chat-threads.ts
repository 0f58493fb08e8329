// Where the chat workload's CPU goes, by thread and by phase, for two checkouts in processes of their own
// (as bench/chat-processes.ts runs them): the event loop's thread, libuv's threadpool (the writes and the
// reads that check the file) and the rest (V8's GC workers, mostly). Per run, in ms, medians over the
// process's runs, per side; and the run's two phases: recording (20,000 record() calls in bursts of 200,
// a setImmediate between them — the loop never sleeps then, so this phase is the loop thread's CPU and
// the time it is not scheduled) and the flush behind it (mostly the fdatasync flush() asks for).
//
// Per-thread CPU comes from /proc/self/task/<tid>/stat (utime + stime, clock ticks: 10 ms each, so each
// figure is a sum over the process's runs divided by them). Linux only. Which threads are the threadpool's
// is found by a calibration before the runs: key derivations (`crypto.pbkdf2`, two per pool thread), which
// run on the threadpool, all CPU, allocating nothing; the UV_THREADPOOL_SIZE (default 4) threads other than
// the loop's that gained the most CPU are taken for it. Last, the `fs.read` and `fs.write` calls per run and
// the time the loop's thread spent inside them: what handing each to the threadpool costs it.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/chat-threads.ts <recorder dir A> <recorder dir B> [pairs] [runs]
// (default 3 pairs of processes, 30 runs each after 3 warm-up runs; ~2 min on a quiet 2-core machine).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { type Create, inAlternatingProcesses, loadRecorder, quantile, RECORDS } from './chat-run.js'
import { chatData } from './records.js'

const WARMUP = 3
const MS_PER_TICK = 10
const POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE ?? 4)

interface Phases {
  /** Wall time, ms. */
  readonly recordWall: number
  readonly flushWall: number
  /** CPU ms of the loop's thread, the threadpool and the other threads, in each phase. */
  readonly recordLoop: number
  readonly recordPool: number
  readonly recordOther: number
  readonly flushLoop: number
  readonly flushPool: number
  readonly flushOther: number
  /**
   * Calls to `fs.read` / `fs.write` per run, and the time the loop's thread spent inside them (handing
   * each to the threadpool): the recorders call them through the `node:fs` module object, so wrapping
   * it sees theirs.
   */
  readonly readCalls: number
  readonly readCallMs: number
  readonly writeCalls: number
  readonly writeCallMs: number
}
const FIGURES = [
  'recordWall',
  'recordLoop',
  'recordPool',
  'recordOther',
  'flushWall',
  'flushLoop',
  'flushPool',
  'flushOther',
  'readCalls',
  'readCallMs',
  'writeCalls',
  'writeCallMs',
] as const

/** Times every call of `fs[name]` while `timing.on` (the calls themselves, not their completion). */
const timing = { on: false, read: { calls: 0, ms: 0 }, write: { calls: 0, ms: 0 } }
function timeCalls(name: 'read' | 'write'): void {
  const real = fs[name] as (...args: unknown[]) => unknown
  ;(fs as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    if (!timing.on) return real.apply(this, args)
    const start = performance.now()
    try {
      return real.apply(this, args)
    } finally {
      timing[name].ms += performance.now() - start
      timing[name].calls++
    }
  }
}

/** Ticks of each thread of this process, by tid. */
function threadTicks(): Map<number, number> {
  const ticks = new Map<number, number>()
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]))
  }
  return ticks
}

function gained(before: Map<number, number>, after: Map<number, number>): Map<number, number> {
  return new Map([...after].map(([tid, t]) => [tid, t - (before.get(tid) ?? 0)]))
}

async function poolThreads(): Promise<Set<number>> {
  const before = threadTicks()
  // Key derivation runs on the threadpool, all CPU and no allocation: two jobs per pool thread.
  await Promise.all(
    Array.from(
      { length: 2 * POOL_SIZE },
      () =>
        new Promise<void>((resolve, reject) =>
          crypto.pbkdf2('bench', 'salt', 50_000, 64, 'sha256', (error) =>
            error ? reject(error) : resolve(),
          ),
        ),
    ),
  )
  const busiest = [...gained(before, threadTicks())]
    .filter(([tid]) => tid !== process.pid)
    .sort((a, b) => b[1] - a[1])
    .slice(0, POOL_SIZE)
  return new Set(busiest.map(([tid]) => tid))
}

function split(delta: Map<number, number>, pool: Set<number>): [loop: number, pool: number, other: number] {
  let loop = 0
  let inPool = 0
  let other = 0
  for (const [tid, ticks] of delta) {
    if (tid === process.pid) loop += ticks
    else if (pool.has(tid)) inPool += ticks
    else other += ticks
  }
  return [loop, inPool, other]
}

async function run(create: Create): Promise<{ wall: [number, number]; ticks: Map<number, number>[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-chat-'))
  const rec = create({ dir, sessionId: 'bench-session' })
  await rec.ready()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const t0 = threadTicks()
  timing.on = true
  const start = performance.now()
  for (let i = 0; i < RECORDS; i++) {
    rec.record(i % 2 === 0 ? 'user' : 'assistant', chatData(i))
    if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
  }
  const t1 = threadTicks()
  const recorded = performance.now()
  await rec.flush()
  const t2 = threadTicks()
  const flushed = performance.now()
  timing.on = false
  await rec.close()
  fs.rmSync(dir, { recursive: true, force: true })
  return { wall: [recorded - start, flushed - recorded], ticks: [gained(t0, t1), gained(t1, t2)] }
}

if (process.argv[2] === '--child') {
  const [dir, runsArg] = process.argv.slice(3) as [string, string]
  timeCalls('read')
  timeCalls('write')
  const create = await loadRecorder(dir)
  const pool = await poolThreads()
  const runs = Number(runsArg)
  for (let i = 0; i < WARMUP; i++) await run(create)
  timing.read = { calls: 0, ms: 0 }
  timing.write = { calls: 0, ms: 0 }
  const sums = { recordWall: 0, flushWall: 0, record: [0, 0, 0], flush: [0, 0, 0] }
  for (let i = 0; i < runs; i++) {
    const { wall, ticks } = await run(create)
    sums.recordWall += wall[0]
    sums.flushWall += wall[1]
    split(ticks[0]!, pool).forEach((t, k) => (sums.record[k]! += t))
    split(ticks[1]!, pool).forEach((t, k) => (sums.flush[k]! += t))
  }
  const ms = (ticks: number) => (ticks * MS_PER_TICK) / runs
  const phases: Phases = {
    recordWall: sums.recordWall / runs,
    flushWall: sums.flushWall / runs,
    recordLoop: ms(sums.record[0]!),
    recordPool: ms(sums.record[1]!),
    recordOther: ms(sums.record[2]!),
    flushLoop: ms(sums.flush[0]!),
    flushPool: ms(sums.flush[1]!),
    flushOther: ms(sums.flush[2]!),
    readCalls: timing.read.calls / runs,
    readCallMs: timing.read.ms / runs,
    writeCalls: timing.write.calls / runs,
    writeCallMs: timing.write.ms / runs,
  }
  process.stdout.write(`${JSON.stringify(phases)}\n`)
} else {
  const [dirA, dirB, pairsArg, runsArg] = process.argv.slice(2)
  if (dirA === undefined || dirB === undefined)
    throw new TypeError('Usage: chat-threads.ts <recorder dir A> <recorder dir B> [pairs] [runs]')
  const pairs = Number(pairsArg ?? 3)
  const runs = Number(runsArg ?? 30)
  if (!Number.isInteger(pairs) || pairs < 1) throw new TypeError(`Expected pairs ≥ 1, got ${pairsArg}`)
  if (!Number.isInteger(runs) || runs < 1) throw new TypeError(`Expected runs ≥ 1, got ${runsArg}`)
  const loadAtStart = os.loadavg()[0]!
  const results = inAlternatingProcesses<Phases>(
    fileURLToPath(import.meta.url),
    { A: dirA, B: dirB },
    pairs,
    runs,
  )
  console.log(
    `chat by thread and phase — Node ${process.version}, ${os.cpus().length} CPUs, ${pairs} processes per side, ` +
      `each the mean of ${runs} runs (+${WARMUP} warm-up); load average ${loadAtStart.toFixed(1)} at the start, ` +
      `${os.loadavg()[0]!.toFixed(1)} at the end\nA ${dirA}\nB ${dirB}\n`,
  )
  console.log('| ms per run (median of the processes) | A | B | B − A |')
  console.log('|:--|--:|--:|--:|')
  for (const figure of FIGURES) {
    const a = quantile(
      results.A.map((r) => r[figure]),
      0.5,
    )
    const b = quantile(
      results.B.map((r) => r[figure]),
      0.5,
    )
    console.log(`| ${figure} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b - a).toFixed(1)} |`)
  }
}
