// One child of the kill fuzz (bench/kill-fuzz.ts): opens or resumes a session, records bursts of records of
// varied sizes, flushes at random points and prints every acknowledged watermark with the uuids it covers,
// as JSON lines on stdout (kill-fuzz-protocol.ts), until it is killed with SIGKILL — by the parent, or by a
// thread of its own at a precise moment — or, for the child that ends a chain, until it has closed.
import { once } from 'node:events'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'

import { createRecorder, type FlushWatermark, type Recorder } from '../src/index.js'
import {
  type ChildEvent,
  type ChildPlan,
  MAX_HUGE_RECORDS_PER_CHILD,
  RECORD_SIZES,
} from './kill-fuzz-protocol.js'
import { Random } from './kill-fuzz-random.js'

// The killer thread waits on a shared cell, then on a timed wait, then kills the whole process. Plain
// CommonJS evaluated without tsx (execArgv: []) so it is armed in a few milliseconds.
const SELF_KILLER = `
const { workerData, parentPort } = require('node:worker_threads')
const cell = new Int32Array(workerData.shared)
parentPort.postMessage('armed')
Atomics.wait(cell, 0, 0)
if (workerData.delayMs > 0) Atomics.wait(cell, 1, 0, workerData.delayMs)
process.kill(process.pid, 'SIGKILL')
`

// Mixed into payloads so that byte offsets and character offsets differ and a tear can split a character.
const MULTIBYTE = 'é✓😀ß'

const plan = JSON.parse(process.argv[2] ?? '') as ChildPlan
const random = new Random(plan.seed)

function emit(event: ChildEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`)
}

function emitError(where: string, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code
  emit({
    t: 'error',
    where,
    code: typeof code === 'string' ? code : 'UNKNOWN',
    message: error instanceof Error ? error.message : String(error),
  })
}

async function armSelfKill(delayMs: number): Promise<() => void> {
  const shared = new SharedArrayBuffer(8)
  const worker = new Worker(SELF_KILLER, { eval: true, execArgv: [], workerData: { shared, delayMs } })
  // If the child ends first (it should not: it waits), the killer must not keep it alive.
  worker.unref()
  await once(worker, 'message')
  const cell = new Int32Array(shared)
  return () => {
    Atomics.store(cell, 0, 1)
    Atomics.notify(cell, 0)
  }
}

function payload(bytes: number): string {
  if (random.chance(0.7)) return 'x'.repeat(bytes)
  // Roughly `bytes` bytes of UTF-8: 2, 3, 4 and 2 bytes per character of MULTIBYTE.
  return MULTIBYTE.repeat(Math.max(1, Math.round(bytes / 11)))
}

let hugeRecords = 0
function recordSize(): number {
  let roll = random.next()
  for (const size of RECORD_SIZES) {
    roll -= size.share
    if (roll >= 0) continue
    if (size.name !== '3 MB') return size.bytes
    if (hugeRecords < MAX_HUGE_RECORDS_PER_CHILD) {
      hugeRecords++
      return size.bytes
    }
    break
  }
  return RECORD_SIZES[0].bytes
}

function pause(): Promise<void> {
  const roll = random.next()
  if (roll < 0.2) return new Promise((resolve) => setImmediate(resolve))
  const ms = roll < 0.7 ? random.real(0, 5) : random.real(5, 50)
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function main(): Promise<void> {
  const trigger = plan.selfKillMs === null ? null : await armSelfKill(plan.selfKillMs)
  const uuids: string[] = []
  let acked = 0
  const ack = (mark: FlushWatermark, recorded: number): void => {
    // Flushes resolve in order; a later one may cover records an earlier ack line already named.
    const fresh = recorded > acked ? uuids.slice(acked, recorded) : []
    acked = Math.max(acked, recorded)
    emit({ t: 'ack', uuid: mark.uuid, count: mark.count, recorded, uuids: fresh })
  }

  emit({ t: 'start', pid: process.pid })
  const started = performance.now()
  trigger?.()
  let recorder: Recorder
  try {
    recorder = createRecorder({
      dir: plan.dir,
      sessionId: plan.sessionId,
      resume: plan.resume,
      fsync: plan.fsync,
      meta: plan.meta,
      maxWriteBytes: plan.maxWriteBytes,
      // Far longer than any resume may take: a resume that has to wait for the lock to go stale is a failure.
      lockStaleMs: 60_000,
      onError: (error) => emitError('onError', error),
    })
  } catch (error) {
    emitError('createRecorder', error)
    process.exit(2)
  }
  emit({ t: 'created', ms: performance.now() - started })
  recorder.ready().then(
    () => emit({ t: 'ready', ms: performance.now() - started }),
    (error: unknown) => emitError('ready', error),
  )

  const flush = (): Promise<void> => {
    const recorded = uuids.length
    return recorder.flush().then(
      (mark) => ack(mark, recorded),
      (error: unknown) => emitError('flush', error),
    )
  }

  const deadline = Date.now() + plan.maxRunMs
  let bytes = 0
  while (Date.now() < deadline) {
    if (bytes < plan.budgetBytes) {
      const count = random.int(1, random.chance(0.2) ? 200 : 20)
      for (let i = 0; i < count; i++) {
        const size = recordSize()
        const title = random.chance(0.01)
        try {
          uuids.push(
            title
              ? recorder.record('title', { title: `fuzz ${uuids.length}` })
              : recorder.record('fuzz', { seq: uuids.length, text: payload(size) }),
          )
        } catch (error) {
          emitError('record', error)
        }
        bytes += size
      }
    } else if (plan.finish === 'close') {
      break
    }
    if (random.chance(0.5)) {
      const flushed = flush()
      if (random.chance(0.5)) await flushed
    }
    await pause()
  }

  const recorded = uuids.length
  try {
    await recorder.close()
  } catch (error) {
    emitError('close', error)
    process.exit(3)
  }
  ack(recorder.persisted, recorded)
  emit({ t: 'closed' })
  process.exit(0)
}

main().catch((error: unknown) => {
  emitError('main', error)
  process.exit(4)
})
