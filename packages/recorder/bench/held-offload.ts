// Would escaping and encoding held strings on a worker pay? What matters is the caller's thread: the time a
// piece costs it when escaped and encoded here (what the recorder does, within its turn's budget) against
// the time it costs just to hand the same piece to a worker (postMessage copies the string on this thread:
// structured clone; a worker cannot read the caller's heap). Both per 1 Mi code units, base64 and text with
// escapes and non-ASCII, in one process, medians of many pieces.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/held-offload.ts
import os from 'node:os'
import { Worker } from 'node:worker_threads'

import { hugeData } from './records.js'

const PIECE = 1024 * 1024
const ROUNDS = 5

// The worker escapes, encodes and drops each piece, and answers so the sender never runs ahead unbounded.
const worker = new Worker(
  `const { parentPort } = require('node:worker_threads')
   parentPort.on('message', (piece) => {
     const text = JSON.stringify(piece)
     Buffer.from(text)
     parentPort.postMessage(text.length)
   })`,
  { eval: true },
)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function measure(name: string, raw: string): Promise<void> {
  const here: number[] = []
  const post: number[] = []
  const roundTrip: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i + PIECE <= raw.length; i += PIECE) {
      const piece = raw.slice(i, i + PIECE)
      let start = performance.now()
      const buffer = Buffer.allocUnsafeSlow(PIECE * 6)
      buffer.write(JSON.stringify(piece).slice(1, -1))
      here.push(performance.now() - start)
      start = performance.now()
      const answered = new Promise((resolve) => worker.once('message', resolve))
      worker.postMessage(piece)
      post.push(performance.now() - start)
      await answered
      roundTrip.push(performance.now() - start)
    }
  }
  const h = median(here)
  const p = median(post)
  console.log(
    `| ${name} | ${h.toFixed(2)} | ${p.toFixed(2)} | ${(p / h).toFixed(2)}× | ${median(roundTrip).toFixed(2)} |`,
  )
}

console.log(
  `held strings: escape + encode here vs hand to a worker — Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}, per 1 Mi code units, medians\n`,
)
console.log('| piece | escape + encode here, ms | postMessage (this thread), ms | ratio | round trip, ms |')
console.log('|:--|--:|--:|--:|--:|')
const base64 = (hugeData('base64', 10).output as { base64: string }).base64
const text = (hugeData('text', 10).output as { stdout: string }).stdout
await measure('base64', base64)
await measure('text (escapes, non-ASCII)', text)
await worker.terminate()
