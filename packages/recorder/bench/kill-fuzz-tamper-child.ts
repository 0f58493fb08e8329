// The writer of the kill fuzz's tamperer lane (bench/kill-fuzz-tamper.ts): records small records in bursts,
// flushes at random points and prints every acknowledged watermark with the uuids it covers, and every
// onError, as JSON lines on stdout (the ChildEvent shapes of kill-fuzz-protocol.ts), while the parent
// tampers with its transcript. On the line `end` on stdin it stops recording, closes and exits.
import { createInterface } from 'node:readline'

import { createRecorder, type FlushWatermark } from '../src/index.js'
import type { ChildEvent } from './kill-fuzz-protocol.js'
import { Random } from './kill-fuzz-random.js'

interface TamperChildPlan {
  readonly dir: string
  readonly sessionId: string
  readonly fileCheckIntervalMs: number
  readonly seed: number
}

const plan = JSON.parse(process.argv[2] ?? '') as TamperChildPlan
const random = new Random(plan.seed)

function emit(event: ChildEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`)
}

const uuids: string[] = []
let acked = 0
const ack = (mark: FlushWatermark, recorded: number): void => {
  const fresh = recorded > acked ? uuids.slice(acked, recorded) : []
  acked = Math.max(acked, recorded)
  emit({ t: 'ack', uuid: mark.uuid, count: mark.count, recorded, uuids: fresh })
}

const recorder = createRecorder({
  dir: plan.dir,
  sessionId: plan.sessionId,
  fileCheckIntervalMs: plan.fileCheckIntervalMs,
  onError: (error) => emit({ t: 'error', where: 'onError', code: error.code, message: error.message }),
})

let ending = false
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'end') ending = true
})

async function main(): Promise<void> {
  while (!ending) {
    const count = random.int(1, 20)
    for (let i = 0; i < count; i++) {
      const seq = uuids.length
      uuids.push(recorder.record('chat', { seq, text: 'x'.repeat(random.int(10, 400)) }))
    }
    if (random.chance(0.6)) {
      const recorded = uuids.length
      const flushed = recorder.flush().then(
        (mark) => ack(mark, recorded),
        (error: { code?: string; message?: string }) =>
          emit({ t: 'error', where: 'flush', code: error.code ?? 'UNKNOWN', message: error.message ?? '' }),
      )
      if (random.chance(0.5)) await flushed
    }
    await new Promise((resolve) => setTimeout(resolve, random.real(0, 15)))
  }
  const recorded = uuids.length
  try {
    await recorder.close()
    ack(recorder.persisted, recorded)
  } catch (error) {
    const failure = error as { code?: string; message?: string }
    emit({ t: 'error', where: 'close', code: failure.code ?? 'UNKNOWN', message: failure.message ?? '' })
  }
  emit({ t: 'closed' })
  process.exit(0)
}

void main()
