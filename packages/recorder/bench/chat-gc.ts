// The chat workload of bench/chat-ab.ts, one build, run after run: what its garbage collector copies. Wall
// and CPU time move with the machine's load; the bytes V8's scavenges copy (records alive when they run)
// do not, and they are where the read before each write cost chat its throughput (docs/benchmarks.md,
// "Chat throughput and the read before each write"). Run it under --trace-gc-nvp and sum per run:
//
//   node --trace-gc-nvp --conditions=@sessiontape/source --import tsx bench/chat-gc.ts <recorder dir> [runs] \
//     | awk '/gc=s /{n++; for(i=1;i<=NF;i++){split($i,a,"="); if(a[1]=="new_space_survived"||a[1]=="promoted") s[a[1]]+=a[2]}}
//            /gc=mc/{mc++} /^runs /{r=$2} END {printf "per run: %.1f scavenges, %.2f mark-compacts, survived %.2f MiB, promoted %.2f MiB\n",
//            n/r, mc/r, s["new_space_survived"]/2^20/r, s["promoted"]/2^20/r}'
//
// The last line it prints itself: `runs <n> writes/run <w>`. The GC lines of the warm-up run are counted
// too (one run in `runs`+1; the module's first compilation is in it).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import type { createRecorder } from '../src/index.js'
import { chatData } from './records.js'

const [dir, runsArg] = process.argv.slice(2)
if (dir === undefined) throw new TypeError('Usage: chat-gc.ts <recorder dir> [runs]')
const runs = Number(runsArg ?? 20)
if (!Number.isInteger(runs) || runs < 1)
  throw new TypeError(`Expected runs to be a positive integer, got ${runsArg}`)
const RECORDS = 20_000

type Create = typeof createRecorder
const create = (
  (await import(pathToFileURL(path.resolve(dir, 'src/index.ts')).href)) as { createRecorder: Create }
).createRecorder

let writes = 0
for (let run = 0; run <= runs; run++) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontape-chat-gc-'))
  const rec = create({ dir: tmp, sessionId: 'bench-session' })
  await rec.ready()
  for (let i = 0; i < RECORDS; i++) {
    rec.record(i % 2 === 0 ? 'user' : 'assistant', chatData(i))
    if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
  }
  await rec.flush()
  if (run > 0) writes += rec.stats().writes
  await rec.close()
  fs.rmSync(tmp, { recursive: true, force: true })
}
console.log(`runs ${runs + 1} writes/run ${(writes / runs).toFixed(1)}`)
