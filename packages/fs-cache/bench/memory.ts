import * as fs from 'node:fs'
import * as v8 from 'node:v8'
import * as vm from 'node:vm'
import { createPathCache } from '../src/index.js'

/** A `gc()` without restarting node with --expose-gc: the flag can be turned on at run time. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as () => void
}

function heapAfter(gc: () => void): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/**
 * Heap bytes per stored path: ours (slim frozen stat + realpath string, key and LRU slot included)
 * against a plain Map of full `fs.Stats` objects for the same paths, the usual hand-rolled cache.
 */
export async function bytesPerEntry(
  paths: readonly string[],
): Promise<{ ours: number; fullStatsMap: number }> {
  const gc = collector()
  let base = heapAfter(gc)
  const cache = createPathCache({ max: paths.length })
  for (const p of paths) {
    await cache.stat(p)
    await cache.realpath(p)
  }
  const ours = (heapAfter(gc) - base) / paths.length
  if (cache.stats().size !== paths.length) throw new Error('memory bench: not every path was stored')
  cache.clear()
  base = heapAfter(gc)
  const map = new Map<string, fs.Stats>()
  for (const p of paths) map.set(p, fs.statSync(p))
  const fullStatsMap = (heapAfter(gc) - base) / paths.length
  if (map.size !== paths.length) throw new Error('unreachable')
  return { ours, fullStatsMap }
}
