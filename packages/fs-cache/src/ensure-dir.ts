import { DirMemo, type EnsureDirOptions, type ForgetDirOptions } from './dir-memo.js'
import { nodeFs } from './fs-adapter.js'

/** Enough for every directory a CLI session creates; an evicted one just costs one idempotent mkdir. */
const DEFAULT_MEMO_MAX = 1024

// Created on first use, so importing the package touches nothing (not even a registry entry).
let shared: DirMemo | undefined
function memo(): DirMemo {
  return (shared ??= new DirMemo(nodeFs, DEFAULT_MEMO_MAX))
}

/**
 * `mkdir -p dir` with a process-wide memo: after one success, later calls for the same resolved path
 * cost a map lookup and no syscall. A failure is not memoized (the next call tries again), and
 * concurrent calls for one directory share one mkdir. If the directory may have been removed since,
 * call {@link forgetDir} first.
 */
export function ensureDir(dir: string, options?: EnsureDirOptions): Promise<void> {
  return memo().ensure(dir, options)
}

/** Synchronous {@link ensureDir} on the same memo (for exit handlers, where nothing async runs). */
export function ensureDirSync(dir: string, options?: EnsureDirOptions): void {
  memo().ensureSync(dir, options)
}

/**
 * Forget that `dir` (and with `deep`, everything under it) was ensured, so the next `ensureDir` runs
 * mkdir again. A mkdir in flight for a forgotten path still settles for its callers but is not memoized,
 * and later calls run a fresh mkdir instead of joining it.
 * Returns the number of memo entries dropped.
 */
export function forgetDir(dir: string, options?: ForgetDirOptions): number {
  return memo().forget(dir, options)
}
