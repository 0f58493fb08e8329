// Same-process A/B of one session's first flush (createRecorder in a fresh directory, one ~1 KB record,
// flush() with the default fsync 'flush'), alternating the two checkouts: what a created transcript costs
// once — since issue 27, the fsync of its directory on top of the fdatasync. The chat workload (chat-ab.ts)
// pays it once per run, inside its end-to-end time.
//
// Run: node --conditions=@sessiontape/source --import tsx bench/first-flush-ab.ts <recorder dir A> <recorder dir B> [runs]
// e.g. a checkout of the previous commit made with `git archive <rev> packages/recorder | tar -x -C /tmp/a`.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import type { createRecorder } from '../src/index.js'

const [dirA, dirB, runsArg] = process.argv.slice(2)
if (dirA === undefined || dirB === undefined)
  throw new TypeError('Usage: first-flush-ab.ts <recorder dir A> <recorder dir B> [runs]')
const runs = Number(runsArg ?? 80)
const WARMUP = 4

type Create = typeof createRecorder
const load = async (dir: string): Promise<Create> =>
  ((await import(pathToFileURL(path.resolve(dir, 'src/index.ts')).href)) as { createRecorder: Create })
    .createRecorder
const sides: ReadonlyArray<readonly [string, string, Create]> = [
  ['A', dirA, await load(dirA)],
  ['B', dirB, await load(dirB)],
]
const times = new Map<string, number[]>(sides.map(([name]) => [name, []]))

for (let run = 0; run < runs + WARMUP; run++) {
  for (const [name, , create] of run % 2 === 0 ? sides : [...sides].reverse()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-first-flush-'))
    const rec = create({ dir, sessionId: 'bench', meta: false })
    await rec.ready()
    rec.record('user', { text: 'x'.repeat(1000) })
    const start = performance.now()
    await rec.flush()
    if (run >= WARMUP) times.get(name)!.push(performance.now() - start)
    await rec.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
const quantile = (values: readonly number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!.toFixed(2)
console.log(`Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}, ${runs} runs each`)
for (const [name, dir] of sides) {
  const values = times.get(name)!
  console.log(`${name} ${dir}: first flush p50 ${quantile(values, 0.5)} ms, p90 ${quantile(values, 0.9)} ms`)
}
