// One child of the kill fuzz (bench/kill-fuzz.ts): opens or resumes a session, records bursts of records of
// varied sizes and shapes (a share of them handed over: `{ handOver: true }`), each carrying a digest of
// its content, flushes at random points and prints every acknowledged watermark with the uuids it covers,
// as JSON lines on stdout (kill-fuzz-protocol.ts), until it is killed with SIGKILL — by the parent, or by a
// thread of its own at a precise moment — or, for the child that ends a chain, until it has closed.
import { once } from 'node:events'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'

import { createRecorder, type FlushWatermark, QueueFullError, type Recorder } from '../src/index.js'
import {
  type BodyShape,
  type ChildEvent,
  type ChildPlan,
  contentSum,
  type FuzzData,
  RECORD_SHAPES,
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
// Everything JSON must escape or encode in more than one byte, lone surrogates included (JSON.stringify
// writes those as \uXXXX escapes; a writer that encoded them as UTF-8 would write U+FFFD instead).
const ESCAPES = '"\\\n\t\u0001\u001f</é✓😀\ud800x\udc00ß\u2028'
const ALPHABETS = ['x', MULTIBYTE, ESCAPES] as const
// Long strings carry their offset every this many code units, so a slice written twice, or skipped,
// changes the content (a string of one repeated pattern would read back the same).
const MARK_EVERY = 1024

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

/** `chars` code units of `alphabet`, with `<offset>` every MARK_EVERY units. */
function marked(chars: number, alphabet: string, from = 0): string {
  const filler = alphabet.repeat(Math.ceil(MARK_EVERY / alphabet.length))
  const chunks: string[] = []
  let length = 0
  for (let at = from; length < chars; at += MARK_EVERY) {
    const chunk = `<${at}>${filler}`.slice(0, MARK_EVERY)
    chunks.push(chunk)
    length += chunk.length
  }
  const text = chunks.join('')
  return text.length === chars ? text : text.slice(0, chars)
}

/** A long string in one of the representations V8 may hand the writer: flat, sliced or concatenated. */
function longString(chars: number): string {
  const alphabet = random.pick(ALPHABETS)
  if (!random.chance(0.3)) return marked(chars, alphabet)
  const half = chars >> 1
  return marked(half, alphabet) + marked(chars - half, random.pick(ALPHABETS), half)
}

function text(bytes: number): string {
  if (bytes < MARK_EVERY)
    return random.chance(0.7) ? 'x'.repeat(bytes) : MULTIBYTE.repeat(Math.max(1, Math.round(bytes / 11)))
  // Roughly `bytes` bytes of UTF-8: 2, 3, 4 and 2 bytes per character of MULTIBYTE.
  return random.chance(0.7) ? marked(bytes, 'x') : marked(Math.round(bytes / 2.5), MULTIBYTE)
}

/** 1,000–5,000 small objects in an array (or as the values of one object's keys). */
function structure(): { body: unknown; chars: number } {
  const count = random.int(1000, 5000)
  const item = (i: number): unknown => ({
    i,
    name: `item-${i}`,
    ok: i % 3 === 0,
    tags: [i % 7, null, i % 5 === 0 ? MULTIBYTE : 'a"b'],
    ratio: i / 7,
  })
  if (random.chance(0.25)) {
    const body: Record<string, unknown> = {}
    for (let i = 0; i < count; i++) body[`k${i}`] = item(i)
    return { body, chars: count * 80 }
  }
  return { body: Array.from({ length: count }, (_, i) => item(i)), chars: count * 80 }
}

function body(shape: BodyShape, bytes: number): { body: unknown; chars: number } {
  switch (shape) {
    case 'text':
      return { body: text(bytes), chars: bytes }
    case 'structure':
      return structure()
    case 'long-strings': {
      // ≥ 64 Ki each and ≥ 1 Mi together: the recorder holds them by reference (while its queue has room).
      const parts = Array.from({ length: random.int(16, 24) }, () =>
        longString(
          random.chance(0.15) ? random.int(256 * 1024, 300 * 1024) : random.int(64 * 1024, 96 * 1024),
        ),
      )
      return { body: { parts }, chars: parts.reduce((sum, part) => sum + part.length, 0) }
    }
    case 'huge-string': {
      // Now and then 8 Mi+ code units: held by reference even once the queue is past an eighth of its bound.
      const chars = random.chance(0.25)
        ? random.int(8 * 1024 * 1024, 9 * 1024 * 1024)
        : random.int(2_000_000, 5_000_000)
      const string = chars > 8 * 1024 * 1024 ? marked(chars, 'x') : longString(chars)
      return { body: { text: string, length: string.length }, chars }
    }
  }
}

const drawn = new Map<string, number>()
function recordShape(): (typeof RECORD_SHAPES)[number] {
  let roll = random.next()
  for (const shape of RECORD_SHAPES) {
    roll -= shape.share
    if (roll >= 0) continue
    const count = drawn.get(shape.name) ?? 0
    if (count >= shape.max) break
    drawn.set(shape.name, count + 1)
    return shape
  }
  return RECORD_SHAPES[0]
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
      maxQueueBytes: plan.maxQueueBytes,
      // Far longer than any resume may take: a resume that has to wait for the lock to go stale is a failure.
      lockStaleMs: 60_000,
      onError: (error) => emitError('onError', error),
    })
  } catch (error) {
    emitError('createRecorder', error)
    process.exit(2)
  }
  emit({ t: 'created', ms: performance.now() - started })
  let ready = false
  recorder.ready().then(
    () => {
      ready = true
      emit({ t: 'ready', ms: performance.now() - started })
    },
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
        const seq = uuids.length
        const handOver = random.chance(plan.handOverShare)
        let chars = 8
        try {
          if (random.chance(0.01)) {
            uuids.push(recorder.record('title', { title: `fuzz ${seq}`, run: plan.run, seq }))
          } else {
            const drawnShape = recordShape()
            const made = body(drawnShape.shape, drawnShape.bytes)
            chars = made.chars
            const mode = handOver ? 'handover' : 'copy'
            const data: FuzzData = {
              run: plan.run,
              seq,
              shape: drawnShape.shape,
              mode,
              sum: contentSum([plan.run, seq, drawnShape.shape, mode, made.body]),
              body: made.body,
            }
            uuids.push(recorder.record('fuzz', data, handOver ? { handOver: true } : undefined))
          }
        } catch (error) {
          // Refused, not accepted: its seq is the next record's.
          if (error instanceof QueueFullError) emit({ t: 'refused', ready, message: error.message })
          else emitError('record', error)
        }
        bytes += chars
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
