import type { FsAdapter } from './fs-adapter.js'

/** Options of {@link createPathCache}. */
export interface PathCacheOptions {
  /**
   * Most paths kept at once, least recently used evicted first. One path holds its stat, lstat and
   * realpath answers (slim values, a few hundred bytes). `findInDir` answers and the per-cache
   * `ensureDir` memo are bounded by the same number, each in its own store. An integer from 1 to 1048576.
   *
   * @default 1024
   */
  readonly max?: number
  /**
   * How long a stored answer may be served, in milliseconds; older answers are asked again. `0` serves
   * nothing from the store (only in-flight sharing remains). Without it, an answer stays until it is
   * evicted, invalidated or cleared — call `invalidate()` after your own writes.
   *
   * @default undefined (no expiry)
   */
  readonly ttlMs?: number
  /**
   * File-system seam for tests (count syscalls, inject EACCES…).
   *
   * @internal
   * @default the real `node:fs`, with native realpath in both modes
   */
  readonly fs?: FsAdapter
  /**
   * Millisecond clock for `ttlMs`, for tests.
   *
   * @internal
   * @default performance.now
   */
  readonly now?: () => number
}

/** Options of `invalidate()`. */
export interface InvalidateOptions {
  /**
   * Also drop everything under the path, on a path-separator boundary (`/a/b` covers `/a/b/c`,
   * never `/a/bc`). Use it after a rename, move or recursive delete of a directory.
   *
   * @default false
   */
  readonly deep?: boolean
}

/** Options of `isPathWithin()` and `isPathWithinSync()`. */
export interface IsPathWithinOptions {
  /**
   * Ask the file system again for every step of this check instead of trusting a stored realpath, and
   * refresh the stored answers with what it says. Use it where a directory may have been swapped for a
   * symlink behind the cache's back (a shell command the agent ran, another process) right before a
   * write. Costs what an uncached check costs: one `realpath` per step.
   *
   * @default false
   */
  readonly verify?: boolean
}
