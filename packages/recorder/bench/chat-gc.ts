// The chat workload (bench/chat-run.ts), one build, run after run: what its garbage collector copies. Wall
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
import { chatRun, loadRecorder } from './chat-run.js'

const [dir, runsArg] = process.argv.slice(2)
if (dir === undefined) throw new TypeError('Usage: chat-gc.ts <recorder dir> [runs]')
const runs = Number(runsArg ?? 20)
if (!Number.isInteger(runs) || runs < 1)
  throw new TypeError(`Expected runs to be a positive integer, got ${runsArg}`)

const create = await loadRecorder(dir)
let writes = 0
for (let run = 0; run <= runs; run++) {
  const { writes: written } = await chatRun(create)
  if (run > 0) writes += written
}
console.log(`runs ${runs + 1} writes/run ${(writes / runs).toFixed(1)}`)
