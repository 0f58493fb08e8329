import * as path from 'node:path'
import { LRUCache } from 'lru-cache'
import type { FsAdapter } from './fs-adapter.js'
import { assertKnownKeys } from './known-keys.js'
import { isSameOrUnder } from './path-match.js'
import { RESET_FOR_TEST, register, type Resettable } from './registry.js'
import { assertMode, assertOptions, assertPath } from './validate.js'

/** Options of {@link ensureDir} and {@link ensureDirSync}. */
export interface EnsureDirOptions {
  /**
   * Permission bits for directories this call creates (before the umask). Directories that already
   * exist are left as they are, and a memoized directory is not re-created, so the mode of the first
   * successful call for a path wins.
   *
   * @default 0o700
   */
  readonly mode?: number
}

/** Options of {@link forgetDir}. */
export interface ForgetDirOptions {
  /** Also forget every memoized directory under `dir` (on a path-separator boundary). @default false */
  readonly deep?: boolean
}

/** Private to the owner: only the user's data should be readable in a session directory. */
const DEFAULT_MODE = 0o700

const ENSURE_OPTIONS = ['mode']
/** fs.mkdir's own option names, which a caller of a `mkdir -p` wrapper naturally reaches for. */
const MKDIR_NAMES = { recursive: "fs.mkdir's `recursive` is implied: ensureDir is always `mkdir -p`" }
const FORGET_OPTIONS = ['deep']

interface Flight {
  promise: Promise<void>
  // Set when `forget`/`clear` ran while the mkdir was in flight: callers still get their answer,
  // but the success is not memoized (it may describe a directory that has since been removed).
  stale: boolean
}

/**
 * `mkdir -p` memoized on success only. A failed mkdir is not remembered, so the next call tries again;
 * concurrent async calls for one directory share one mkdir.
 */
export class DirMemo implements Resettable {
  readonly #fs: FsAdapter
  // Bounded like every other store here; an evicted directory just costs one idempotent mkdir again.
  readonly #done: LRUCache<string, true>
  readonly #inflight = new Map<string, Flight>()

  constructor(fs: FsAdapter, max: number) {
    this.#fs = fs
    this.#done = new LRUCache({ max })
    register(this)
  }

  ensure(dir: string, options?: EnsureDirOptions): Promise<void> {
    const { key, mode } = parse(dir, options)
    if (this.#done.get(key) === true) return Promise.resolve()
    const joined = this.#inflight.get(key)
    if (joined !== undefined) return joined.promise
    // Registered before the mkdir starts, so even a synchronous failure settles against this entry.
    const flight = { stale: false } as Flight
    this.#inflight.set(key, flight)
    flight.promise = this.#mkdir(key, mode, flight)
    return flight.promise
  }

  async #mkdir(key: string, mode: number, flight: Flight): Promise<void> {
    try {
      await this.#fs.mkdir(key, mode)
      if (!flight.stale) this.#done.set(key, true)
    } finally {
      if (this.#inflight.get(key) === flight) this.#inflight.delete(key)
    }
  }

  ensureSync(dir: string, options?: EnsureDirOptions): void {
    const { key, mode } = parse(dir, options)
    if (this.#done.get(key) === true) return
    // A sync caller cannot wait for an async mkdir in flight; mkdir -p is idempotent, so just do it.
    this.#fs.mkdirSync(key, mode)
    this.#done.set(key, true)
  }

  /**
   * Drops the memo for `dir` (and its subtree with `deep`); returns how many entries were dropped.
   * A matching mkdir in flight is detached: its callers still get their answer, it memoizes nothing,
   * and the next call runs a fresh mkdir instead of joining one that may predate a removal.
   */
  forget(dir: string, options?: ForgetDirOptions): number {
    assertPath('dir', dir)
    assertOptions('options', options)
    assertKnownKeys('forgetDir(dir, options)', options, FORGET_OPTIONS)
    const base = path.resolve(dir)
    const deep = options?.deep === true
    for (const [key, flight] of [...this.#inflight]) {
      if (!isSameOrUnder(key, base, deep)) continue
      flight.stale = true
      this.#inflight.delete(key)
    }
    if (!deep) return this.#done.delete(base) ? 1 : 0
    let dropped = 0
    for (const key of [...this.#done.keys()])
      if (isSameOrUnder(key, base, true) && this.#done.delete(key)) dropped++
    return dropped
  }

  clear(): void {
    for (const flight of this.#inflight.values()) flight.stale = true
    this.#inflight.clear()
    this.#done.clear()
  }

  [RESET_FOR_TEST](): void {
    this.clear()
  }
}

function parse(dir: string, options: EnsureDirOptions | undefined): { key: string; mode: number } {
  assertPath('dir', dir)
  assertOptions('options', options)
  assertKnownKeys('ensureDir(dir, options)', options, ENSURE_OPTIONS, MKDIR_NAMES)
  const mode = options?.mode ?? DEFAULT_MODE
  assertMode('options.mode', mode)
  // The memo key and the mkdir argument are the same resolved string, so what is memoized is exactly
  // what was created (a relative `dir` is resolved against the current directory at the call).
  return { key: path.resolve(dir), mode }
}
