/**
 * fs-cache benchmark: every figure of ours is printed next to its raw node:fs baseline measured in the
 * same run, as medians of REPS repetitions. Run: `pnpm --filter @sessiontape/fs-cache bench`.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { nodeFs, THROW, type FsAdapter } from '../src/fs-adapter.js'
import { createPathCache } from '../src/index.js'
import { countingFs } from './counting-fs.js'
import { bytesPerEntry } from './memory.js'
import { compareAsync, compareSync, REPS, timeBursts } from './measure.js'
import { printTable, type Row } from './table.js'

const HIT_TARGET_ASYNC = 20
const HIT_TARGET_SYNC = 5
const MISS_OVERHEAD_LIMIT = 1.2
const BURST_WIDTH = 32

const fsp = fs.promises
const swallow = (): undefined => undefined
function trySync(fn: () => unknown): void {
  try {
    fn()
  } catch {
    // The miss scenarios measure the cost of the failure itself; the error is expected and dropped.
  }
}

async function main(): Promise<void> {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fs-cache-bench-')))
  try {
    // A 10-component path, as on an agent's tool hot path, plus the same file through a symlinked dir.
    const deep = path.join(top, 'a', 'b', 'c', 'd', 'e', 'f', 'g')
    fs.mkdirSync(deep, { recursive: true })
    const file = path.join(deep, 'file.ts')
    fs.writeFileSync(file, 'export {}\n')
    fs.symlinkSync(path.join(top, 'a'), path.join(top, 'link'))
    const viaLink = path.join(top, 'link', 'b', 'c', 'd', 'e', 'f', 'g', 'file.ts')
    const missing = path.join(deep, 'missing.ts')
    const churn = Array.from({ length: 2048 }, (_, i) => {
      const p = path.join(deep, `churn-${i}`)
      fs.writeFileSync(p, '')
      return p
    })
    const settled = path.join(top, 'settled')
    fs.mkdirSync(settled)
    const past = new Date(Date.now() - 60_000)
    fs.utimesSync(settled, past, past)

    const cache = createPathCache()
    await cache.stat(file)
    await cache.realpath(file)
    await cache.realpath(viaLink)
    const rows: Row[] = []
    type SyncFn = (i: number) => unknown
    type AsyncFn = (i: number) => Promise<unknown>
    const addSync = (
      row: Omit<Row, 'oursNs' | 'baselineNs'>,
      ours: [number, SyncFn],
      base: [number, SyncFn],
    ): void => {
      const [oursNs, baselineNs] = compareSync(
        { iterations: ours[0], fn: ours[1] },
        { iterations: base[0], fn: base[1] },
      )
      rows.push({ ...row, oursNs, baselineNs })
    }
    const addAsync = async (
      row: Omit<Row, 'oursNs' | 'baselineNs'>,
      ours: [number, AsyncFn],
      base: [number, AsyncFn],
    ): Promise<void> => {
      const [oursNs, baselineNs] = await compareAsync(
        { iterations: ours[0], fn: ours[1] },
        { iterations: base[0], fn: base[1] },
      )
      rows.push({ ...row, oursNs, baselineNs })
    }
    const SYNC_HIT = 500_000
    const SYNC_RAW = 40_000
    const ASYNC_HIT = 100_000
    const ASYNC_RAW = 4_000

    // --- hits ---
    await addAsync(
      {
        scenario: 'hit: stat (async, serial)',
        ours: 'await cache.stat',
        baseline: 'await fsp.stat',
        target: { kind: 'speedup', value: HIT_TARGET_ASYNC },
      },
      [ASYNC_HIT, () => cache.stat(file)],
      [ASYNC_RAW, () => fsp.stat(file)],
    )
    addSync(
      {
        scenario: 'hit: statSync',
        ours: 'cache.statSync',
        baseline: 'fs.statSync',
        target: { kind: 'speedup', value: HIT_TARGET_SYNC },
      },
      [SYNC_HIT, () => cache.statSync(file)],
      [SYNC_RAW, () => fs.statSync(file)],
    )
    await addAsync(
      {
        scenario: 'hit: realpath (async, serial)',
        ours: 'await cache.realpath',
        baseline: 'await fsp.realpath',
        target: { kind: 'speedup', value: HIT_TARGET_ASYNC },
      },
      [ASYNC_HIT, () => cache.realpath(file)],
      [ASYNC_RAW, () => fsp.realpath(file)],
    )
    addSync(
      {
        scenario: 'hit: realpathSync',
        ours: 'cache.realpathSync',
        baseline: 'fs.realpathSync.native',
        target: { kind: 'speedup', value: HIT_TARGET_SYNC },
      },
      [SYNC_HIT, () => cache.realpathSync(file)],
      [SYNC_RAW, () => fs.realpathSync.native(file)],
    )
    addSync(
      {
        scenario: 'hit: realpathSync through a symlink',
        ours: 'cache.realpathSync',
        baseline: 'fs.realpathSync.native',
        target: { kind: 'speedup', value: HIT_TARGET_SYNC },
      },
      [SYNC_HIT, () => cache.realpathSync(viaLink)],
      [SYNC_RAW, () => fs.realpathSync.native(viaLink)],
    )
    addSync(
      {
        scenario: 'hit: existsSync',
        ours: 'cache.existsSync',
        baseline: 'fs.existsSync',
        note: 'no target in the issue',
      },
      [SYNC_HIT, () => cache.existsSync(file)],
      [SYNC_RAW, () => fs.existsSync(file)],
    )
    await addAsync(
      {
        scenario: 'hit: isPathWithin (existing file)',
        ours: 'await cache.isPathWithin',
        baseline: '2x await fsp.realpath',
        note: 'no target in the issue',
      },
      [ASYNC_HIT / 2, () => cache.isPathWithin(top, file)],
      [
        ASYNC_RAW,
        async () => {
          const [r, t] = await Promise.all([fsp.realpath(top), fsp.realpath(file)])
          return t.startsWith(r + path.sep)
        },
      ],
    )

    // --- misses: failures are never stored, so each call goes to disk; the cost should match the raw call ---
    await addAsync(
      {
        scenario: 'miss: stat ENOENT (async)',
        ours: 'await cache.stat',
        baseline: 'await fsp.stat',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [ASYNC_RAW, () => cache.stat(missing).catch(swallow)],
      [ASYNC_RAW, () => fsp.stat(missing).catch(swallow)],
    )
    addSync(
      {
        scenario: 'miss: statSync ENOENT (throws)',
        ours: 'cache.statSync',
        baseline: 'fs.statSync',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [SYNC_RAW, () => trySync(() => cache.statSync(missing))],
      [SYNC_RAW, () => trySync(() => fs.statSync(missing))],
    )
    addSync(
      {
        scenario: 'miss: existsSync ENOENT',
        ours: 'cache.existsSync',
        baseline: 'fs.existsSync',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [SYNC_RAW, () => cache.existsSync(missing)],
      [SYNC_RAW, () => fs.existsSync(missing)],
    )
    await addAsync(
      {
        scenario: 'miss: realpath ENOENT (async)',
        ours: 'await cache.realpath',
        baseline: 'await fsp.realpath',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [ASYNC_RAW, () => cache.realpath(missing).catch(swallow)],
      [ASYNC_RAW, () => fsp.realpath(missing).catch(swallow)],
    )
    addSync(
      {
        scenario: 'miss: realpathSync ENOENT',
        ours: 'cache.realpathSync',
        baseline: 'fs.realpathSync.native',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [SYNC_RAW, () => trySync(() => cache.realpathSync(missing))],
      [SYNC_RAW, () => trySync(() => fs.realpathSync.native(missing))],
    )
    // Cold misses of existing paths: 2048 distinct files through a 256-entry cache, so every call is a
    // miss that also stores an entry and evicts one.
    const small = createPathCache({ max: 256 })
    addSync(
      {
        scenario: 'cold miss + store + evict: statSync',
        ours: 'cache.statSync',
        baseline: 'fs.statSync',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [SYNC_RAW, (i) => small.statSync(churn[i % churn.length] as string)],
      [SYNC_RAW, (i) => fs.statSync(churn[i % churn.length] as string)],
    )
    await addAsync(
      {
        scenario: 'cold miss + store + evict: stat (async)',
        ours: 'await cache.stat',
        baseline: 'await fsp.stat',
        target: { kind: 'overhead', value: MISS_OVERHEAD_LIMIT },
      },
      [ASYNC_RAW, (i) => small.stat(churn[i % churn.length] as string)],
      [ASYNC_RAW, (i) => fsp.stat(churn[i % churn.length] as string)],
    )
    // The cache's own cost on a miss, without the syscall: a file-system stub that fails at once with a
    // prebuilt ENOENT, called directly (baseline) and through the cache (ours). The difference is the
    // absolute overhead a miss adds to whatever the real syscall costs.
    const enoent = Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
    const stub: FsAdapter = {
      ...nodeFs,
      stat: () => Promise.reject(enoent),
      statSync: () => {
        throw enoent
      },
    }
    const stubbed = createPathCache({ fs: stub })
    addSync(
      {
        scenario: 'miss overhead alone: statSync (stub fails at once)',
        ours: 'cache.statSync',
        baseline: 'stub.statSync',
        note: 'our own cost per miss, syscall excluded',
        showDifference: true,
      },
      [SYNC_HIT / 5, () => trySync(() => stubbed.statSync(missing))],
      [SYNC_HIT / 5, () => trySync(() => stub.statSync(missing, THROW))],
    )
    await addAsync(
      {
        scenario: 'miss overhead alone: stat (stub fails at once)',
        ours: 'await cache.stat',
        baseline: 'await stub.stat',
        note: 'our own cost per miss, syscall excluded',
        showDifference: true,
      },
      [ASYNC_HIT / 5, () => stubbed.stat(missing).catch(swallow)],
      [ASYNC_HIT / 5, () => stub.stat(missing).catch(swallow)],
    )
    addSync(
      {
        scenario: 'findInDirSync, absence remembered',
        ours: 'cache.findInDirSync',
        baseline: 'fs.statSync(dir)+statSync(file)',
        note: 'one stat of the dir instead of two',
      },
      [SYNC_RAW, () => cache.findInDirSync(settled, '.gitignore')],
      [
        SYNC_RAW,
        () => {
          fs.statSync(settled)
          return fs.statSync(path.join(settled, '.gitignore'), { throwIfNoEntry: false })
        },
      ],
    )

    // --- 32 concurrent identical cold lookups: one shared syscall vs 32 ---
    const counted = countingFs()
    const dedup = createPathCache({ fs: counted.fs })
    let rawStats = 0
    const countedRawStat = (p: string): Promise<fs.Stats> => {
      rawStats++
      return fsp.stat(p)
    }
    const BURSTS = 300
    counted.counts.stat = 0
    const dedupNs = await timeBursts(
      BURSTS,
      () => dedup.clear(),
      () => Array.from({ length: BURST_WIDTH }, () => dedup.stat(file)),
    )
    const dedupCalls = counted.counts.stat / (BURSTS * (REPS + 1))
    const rawNs = await timeBursts(
      BURSTS,
      () => undefined,
      () => Array.from({ length: BURST_WIDTH }, () => countedRawStat(file)),
    )
    const rawCalls = rawStats / (BURSTS * (REPS + 1))
    rows.push({
      scenario: `${BURST_WIDTH} concurrent identical cold stat (per burst)`,
      ours: `cache.stat x${BURST_WIDTH}`,
      baseline: `fsp.stat x${BURST_WIDTH}`,
      oursNs: dedupNs,
      baselineNs: rawNs,
      note: `syscalls per burst: ${dedupCalls} vs ${rawCalls}; inflightJoins ${dedup.stats().inflightJoins}`,
    })

    console.log(
      `fs-cache bench — node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ` +
        `${os.platform()} ${os.release()}, medians of ${REPS} runs, ${new Date().toISOString()}`,
    )
    console.log(
      `paths: ${path.relative(top, file)} (10 components under ${top}); symlink case via ${path.relative(top, viaLink)}\n`,
    )
    printTable(rows)
    const memory = await bytesPerEntry(churn)
    console.log(
      `\nheap per stored path (${churn.length} paths, stat + realpath, key and LRU slot included): ` +
        `${memory.ours.toFixed(0)} B; a Map of full fs.Stats for the same paths: ${memory.fullStatsMap.toFixed(0)} B`,
    )
  } finally {
    fs.rmSync(top, { recursive: true, force: true })
  }
}

await main()
