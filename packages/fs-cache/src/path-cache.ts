import { contains, resolveForBoundary, resolveForBoundarySync, type BoundaryFs } from './boundary.js'
import { DirMemo, type EnsureDirOptions } from './dir-memo.js'
import { DirProbe } from './find-in-dir.js'
import { NO_THROW, THROW, type FsAdapter, type FsStatsLike } from './fs-adapter.js'
import { parseInvalidate, parseWithin, resolveCacheOptions } from './resolve-options.js'
import { isMissing } from './is-missing.js'
import { LookupFlights } from './lookup-flights.js'
import type { InvalidateOptions, IsPathWithinOptions, PathCacheOptions } from './options.js'
import { normalizeForMatch, toKey } from './path-match.js'
import { RESET_FOR_TEST, register, type Resettable } from './registry.js'
import { toSlimStat, type SlimStat } from './slim-stat.js'
import { Store, type Kind, type ValueOf } from './store.js'
import { assertPath } from './validate.js'

/** Counters since creation (or the last `resetAllForTest()`); reading them allocates one object. */
export interface PathCacheStats {
  /** Answers served from the store (including `findInDir` answers reused under an unchanged mtime). */
  readonly hits: number
  /** Lookups that asked the file system (successes and failures alike). */
  readonly misses: number
  /** Async lookups that joined an identical lookup already in flight instead of making a syscall. */
  readonly inflightJoins: number
  /** Entries dropped because the store was full (least recently used first). */
  readonly evictions: number
  /** Entries dropped by `invalidate()` and `clear()`. */
  readonly invalidations: number
  /** Paths currently stored (each holds its stat, lstat and realpath answers). */
  readonly size: number
}

/**
 * A positive-only, bounded path cache with in-flight sharing, safe to invalidate mid-flight.
 * Create one with {@link createPathCache}.
 */
export class PathCache implements Resettable {
  readonly #fs: FsAdapter
  readonly #store: Store
  readonly #probe: DirProbe
  readonly #dirs: DirMemo
  // The async lookups in flight (shared by identical calls) and the epoch that invalidation bumps.
  readonly #flights: LookupFlights
  #hits = 0
  #misses = 0
  #invalidations = 0
  // The file-system calls of the isPathWithin walk, built once: a closure per check costs more than a hit.
  readonly #within: { readonly [mode in 'cached' | 'verify']: BoundaryFs<Promise<string>> } = {
    cached: { realpath: (p) => this.realpath(p), readlink: (p) => this.#fs.readlink(p) },
    verify: { realpath: (p) => this.#freshRealpath(p), readlink: (p) => this.#fs.readlink(p) },
  }
  readonly #withinSync: { readonly [mode in 'cached' | 'verify']: BoundaryFs<string> } = {
    cached: { realpath: (p) => this.realpathSync(p), readlink: (p) => this.#fs.readlinkSync(p) },
    verify: { realpath: (p) => this.#freshRealpathSync(p), readlink: (p) => this.#fs.readlinkSync(p) },
  }

  constructor(options?: PathCacheOptions) {
    const { max, ttlMs, fs, now } = resolveCacheOptions(options)
    this.#fs = fs
    this.#store = new Store(max, ttlMs, now)
    this.#flights = new LookupFlights(this.#store)
    this.#probe = new DirProbe(this.#fs, max)
    this.#dirs = new DirMemo(this.#fs, max)
    register(this)
  }

  /** The fully resolved path (native `realpath(3)`), like `fs.promises.realpath`. Failures are not stored. */
  realpath(p: string): Promise<string> {
    assertPath('path', p)
    return this.#lookup('realpath', p, () => this.#fs.realpath(p), identity)
  }

  /** Same answer and store as {@link realpath}, via `fs.realpathSync.native`. */
  realpathSync(p: string): string {
    assertPath('path', p)
    // The sync lookups are written out rather than sharing a helper that takes a callback: a failure
    // unwinds through every frame between the caller and node:fs, and failures are never cached, so
    // each frame is paid on every miss (~70 ns each, measured by the bench's stub rows).
    const key = toKey(p)
    const hit = this.#store.get('realpath', key)
    if (hit !== undefined) {
      this.#hits++
      return hit
    }
    this.#misses++
    const real = this.#fs.realpathSync(p)
    this.#store.set('realpath', key, real)
    return real
  }

  /** A slim, frozen `fs.stat` (follows symlinks). Failures reject unchanged and are not stored. */
  stat(p: string): Promise<SlimStat> {
    assertPath('path', p)
    return this.#lookup('stat', p, () => this.#fs.stat(p), toSlimStat)
  }

  statSync(p: string): SlimStat {
    assertPath('path', p)
    const key = toKey(p)
    const hit = this.#store.get('stat', key)
    if (hit !== undefined) {
      this.#hits++
      return hit
    }
    this.#misses++
    const slim = toSlimStat(this.#fs.statSync(p, THROW) as FsStatsLike)
    this.#store.set('stat', key, slim)
    return slim
  }

  /** A slim, frozen `fs.lstat` (does not follow a final symlink; `isSymbolicLink` is meaningful). */
  lstat(p: string): Promise<SlimStat> {
    assertPath('path', p)
    return this.#lookup('lstat', p, () => this.#fs.lstat(p), toSlimStat)
  }

  lstatSync(p: string): SlimStat {
    assertPath('path', p)
    const key = toKey(p)
    const hit = this.#store.get('lstat', key)
    if (hit !== undefined) {
      this.#hits++
      return hit
    }
    this.#misses++
    const slim = toSlimStat(this.#fs.lstatSync(p))
    this.#store.set('lstat', key, slim)
    return slim
  }

  /**
   * True for a directory (or a symlink to one). False when it is something else, or missing (ENOENT,
   * ENOTDIR) — and the miss is not stored. Other failures (EACCES, ELOOP…) reject unchanged.
   */
  isDirectory(p: string): Promise<boolean> {
    return this.#probeStat(p, isDirectoryAnswer)
  }

  isDirectorySync(p: string): boolean {
    return this.#probeStatSync(p)?.isDirectory === true
  }

  /** Like {@link isDirectory} for "anything at all" (follows symlinks, as `fs.existsSync` does). */
  exists(p: string): Promise<boolean> {
    return this.#probeStat(p, existsAnswer)
  }

  existsSync(p: string): boolean {
    return this.#probeStatSync(p) !== undefined
  }

  /**
   * Security check: is `target` inside `root` once both are fully resolved? A symlink inside the root
   * that points outside gives false. A `target` that does not exist yet is resolved the way the kernel
   * will resolve it when it is created: the longest existing prefix through realpath, then the rest one
   * component at a time (`..` after a symlink is the parent of its target; a dangling symlink is followed).
   * Only realpaths of existing paths are stored; the derived answer never is. `root` must exist.
   * `{ verify: true }` trusts no stored realpath for this check.
   */
  isPathWithin(root: string, target: string, options?: IsPathWithinOptions): Promise<boolean> {
    assertPath('root', root)
    assertPath('target', target)
    return this.#isPathWithin(root, target, this.#within[parseWithin(options) ? 'verify' : 'cached'])
  }

  async #isPathWithin(root: string, target: string, fs: BoundaryFs<Promise<string>>): Promise<boolean> {
    // Both sides at once: on a cold cache that halves the wait, and Promise.all handles both rejections.
    const [realRoot, realTarget] = await Promise.all([fs.realpath(root), resolveForBoundary(target, fs)])
    return contains(realRoot, realTarget)
  }

  isPathWithinSync(root: string, target: string, options?: IsPathWithinOptions): boolean {
    assertPath('root', root)
    assertPath('target', target)
    const fs = this.#withinSync[parseWithin(options) ? 'verify' : 'cached']
    const realRoot = fs.realpath(root)
    return contains(realRoot, resolveForBoundarySync(target, fs))
  }

  /**
   * The path of file `name` in `dir`, or `undefined`. Each call makes one `stat` of `dir`; the answer
   * (present or absent) is reused only while that directory's mtime/ctime/inode are unchanged.
   */
  findInDir(dir: string, name: string): Promise<string | undefined> {
    return this.#probe.find(dir, name)
  }

  findInDirSync(dir: string, name: string): string | undefined {
    return this.#probe.findSync(dir, name)
  }

  /** `mkdir -p` memoized in this cache (on success only); `invalidate(dir)` forgets it. */
  ensureDir(dir: string, options?: EnsureDirOptions): Promise<void> {
    return this.#dirs.ensure(dir, options)
  }

  ensureDirSync(dir: string, options?: EnsureDirOptions): void {
    this.#dirs.ensureSync(dir, options)
  }

  /**
   * Forget what is known about `p` (with `deep`, its whole subtree) and every path whose realpath is
   * `p`. Lookups in flight still answer their callers but store nothing, and later calls do not join
   * them. Returns the number of entries dropped.
   */
  invalidate(p: string, options?: InvalidateOptions): number {
    assertPath('path', p)
    const deep = parseInvalidate(options)
    this.#flights.detach()
    const base = normalizeForMatch(toKey(p))
    const dropped =
      this.#store.invalidate(base, deep) +
      this.#probe.invalidate(base, deep) +
      this.#dirs.forget(base, { deep })
    this.#invalidations += dropped
    return dropped
  }

  /** Forget everything; in-flight lookups still answer their callers but store nothing. */
  clear(): void {
    this.#flights.detach()
    this.#invalidations += this.#store.clear() + this.#probe.clear()
    this.#dirs.clear()
  }

  stats(): PathCacheStats {
    return {
      hits: this.#hits + this.#probe.hits,
      misses: this.#misses + this.#probe.misses,
      inflightJoins: this.#flights.joins,
      evictions: this.#store.evictions + this.#probe.evictions,
      invalidations: this.#invalidations,
      size: this.#store.size,
    }
  }

  [RESET_FOR_TEST](): void {
    this.clear()
    this.#hits = this.#misses = this.#flights.joins = this.#invalidations = 0
    this.#store.evictions = this.#probe.evictions = this.#probe.hits = this.#probe.misses = 0
  }

  /**
   * `realpath` that asks the file system even on a hit (for `verify`), and stores the fresh answer. An
   * answer that moved means the tree changed under the cache: everything stored under the old spelling
   * is dropped as well, as an `invalidate(p, { deep: true })` would.
   */
  async #freshRealpath(p: string): Promise<string> {
    const epoch = this.#flights.epoch
    this.#misses++
    const real = await this.#fs.realpath(p)
    this.#refresh(p, real, epoch)
    return real
  }

  #freshRealpathSync(p: string): string {
    this.#misses++
    const real = this.#fs.realpathSync(p)
    this.#refresh(p, real, this.#flights.epoch)
    return real
  }

  #refresh(p: string, real: string, epoch: number): void {
    const key = toKey(p)
    const stored = this.#store.get('realpath', key)
    if (stored !== undefined && stored !== real) this.invalidate(p, { deep: true })
    else if (epoch !== this.#flights.epoch) return
    this.#store.set('realpath', key, real)
  }

  /** The async lookup: a hit, or a join of the identical lookup in flight, or one new syscall. */
  #lookup<K extends Kind, R>(
    kind: K,
    p: string,
    run: () => Promise<R>,
    convert: (raw: R) => ValueOf<K>,
  ): Promise<ValueOf<K>> {
    const key = toKey(p)
    const hit = this.#store.get(kind, key)
    if (hit !== undefined) {
      this.#hits++
      return Promise.resolve(hit)
    }
    const start = (): Promise<R> => {
      this.#misses++
      return run()
    }
    return this.#flights.share(kind, key, start, convert)
  }

  /**
   * `answer(stat)` for `exists`/`isDirectory`, with `answer(undefined)` for "missing" (never stored);
   * other failures reject. A hit answers without going through `stat()`'s extra promise layers.
   */
  #probeStat(p: string, answer: (st: SlimStat | undefined) => boolean): Promise<boolean> {
    assertPath('path', p)
    const hit = this.#store.get('stat', toKey(p))
    if (hit !== undefined) {
      this.#hits++
      return Promise.resolve(answer(hit))
    }
    return this.stat(p).then(answer, (err: unknown) => {
      if (isMissing(err)) return answer(undefined)
      throw err
    })
  }

  #probeStatSync(p: string): SlimStat | undefined {
    assertPath('path', p)
    const key = toKey(p)
    const hit = this.#store.get('stat', key)
    if (hit !== undefined) {
      this.#hits++
      return hit
    }
    this.#misses++
    let st: FsStatsLike | undefined
    try {
      // throwIfNoEntry:false: a miss costs ~0.5 µs instead of ~4 µs for building a thrown error.
      st = this.#fs.statSync(p, NO_THROW)
    } catch (err) {
      if (isMissing(err)) return undefined
      throw err
    }
    if (st === undefined) return undefined
    const slim = toSlimStat(st)
    this.#store.set('stat', key, slim)
    return slim
  }
}

const identity = (value: string): string => value

const isDirectoryAnswer = (st: SlimStat | undefined): boolean => st?.isDirectory === true
const existsAnswer = (st: SlimStat | undefined): boolean => st !== undefined

/** Creates a {@link PathCache}; bad options throw a `TypeError` (`FsCacheArgumentError`) at the call. */
export function createPathCache(options?: PathCacheOptions): PathCache {
  return new PathCache(options)
}
