// Same-process A/B of two checkouts of the recorder on the write bench's chat workload (20,000 ~1 KB records
// in bursts of 200, setImmediate between bursts, flush() at the end): runs alternate between the two, so a
// busy machine slows both alike, which separate processes (bench/index.ts) cannot promise.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/chat-ab.ts <recorder dir A> <recorder dir B> [runs]
// e.g. a checkout of the previous commit made with `git archive <rev> packages/recorder | tar -x -C /tmp/a`.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import type { createRecorder } from '../src/index.js'
import { chatData } from './records.js'

const [dirA, dirB, runsArg] = process.argv.slice(2)
if (dirA === undefined || dirB === undefined)
  throw new TypeError('Usage: chat-ab.ts <recorder dir A> <recorder dir B> [runs]')
const runs = Number(runsArg ?? 20)
const WARMUP = 2

type Create = typeof createRecorder
const load = async (dir: string): Promise<Create> =>
  ((await import(pathToFileURL(path.resolve(dir, 'src/index.ts')).href)) as { createRecorder: Create })
    .createRecorder
const sides: ReadonlyArray<readonly [string, Create]> = [
  ['A', await load(dirA)],
  ['B', await load(dirB)],
]
const figures = new Map<string, { rate: number[]; p50: number[]; mean: number[] }>()

async function once(create: Create): Promise<{ rate: number; p50: number; mean: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-chat-ab-'))
  const rec = create({ dir, sessionId: 'bench-session' })
  await rec.ready()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const ns: number[] = []
  const start = performance.now()
  for (let i = 0; i < 20_000; i++) {
    const t = process.hrtime.bigint()
    rec.record(i % 2 === 0 ? 'user' : 'assistant', chatData(i))
    ns.push(Number(process.hrtime.bigint() - t))
    if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
  }
  await rec.flush()
  const elapsed = performance.now() - start
  await rec.close()
  fs.rmSync(dir, { recursive: true, force: true })
  ns.sort((a, b) => a - b)
  return {
    rate: (20_000 / elapsed) * 1000,
    p50: ns[ns.length >> 1]!,
    mean: ns.reduce((sum, n) => sum + n, 0) / ns.length,
  }
}

for (let run = 0; run < runs + WARMUP; run++) {
  for (const [name, create] of run % 2 === 0 ? sides : [...sides].reverse()) {
    const result = await once(create)
    if (run < WARMUP) continue
    const list = figures.get(name) ?? { rate: [], p50: [], mean: [] }
    list.rate.push(result.rate)
    list.p50.push(result.p50)
    list.mean.push(result.mean)
    figures.set(name, list)
  }
}
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
console.log(
  `Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}, ${runs} runs each, medians`,
)
for (const [name, dir] of [
  ['A', dirA],
  ['B', dirB],
] as const) {
  const f = figures.get(name)!
  console.log(
    `${name} ${dir}: ${median(f.rate).toFixed(0)} records/s, record() p50 ${median(f.p50)} ns, mean ${median(f.mean).toFixed(0)} ns`,
  )
}
