/**
 * The options of a path cache and of its calls, checked at the boundary: defaults, limits, unknown keys
 * (with lru-cache's names mapped to ours), one message template for every bad value.
 */
import { nodeFs, type FsAdapter } from './fs-adapter.js'
import { assertKnownKeys, type ForeignNames } from './known-keys.js'
import type { InvalidateOptions, IsPathWithinOptions, PathCacheOptions } from './options.js'
import { assertOptions, invalidArgument } from './validate.js'

/** Enough for an agent's working set of paths; ~1024 slim entries stay well under 1 MB. */
const DEFAULT_MAX = 1024
/**
 * lru-cache preallocates its index arrays to `max`, and a JS Map holds at most ~16.7M keys
 * (lru-cache#331), so an unbounded `max` is a memory bug, not a setting.
 */
const MAX_LIMIT = 1_048_576

const CACHE_OPTIONS = ['max', 'ttlMs', 'fs', 'now']
/** lru-cache's names for what people configure on a path cache, and what each one is here. */
const LRU_CACHE_NAMES: ForeignNames = {
  ttl: "lru-cache's `ttl` is `ttlMs` here (milliseconds)",
  maxSize: "lru-cache's `maxSize` has no equivalent: the store is bounded by entry count, `max`",
  sizeCalculation:
    "lru-cache's `sizeCalculation` has no equivalent: the store is bounded by entry count, `max`",
  maxEntrySize: "lru-cache's `maxEntrySize` has no equivalent: the store is bounded by entry count, `max`",
  allowStale: "lru-cache's `allowStale` has no equivalent: an expired answer is never served",
  updateAgeOnGet:
    "lru-cache's `updateAgeOnGet` has no equivalent: an answer ages from when it was read from disk",
  ttlAutopurge:
    "lru-cache's `ttlAutopurge` has no equivalent: expired answers are dropped when next asked for",
  perf: "lru-cache's `perf` is the test-only `now` here",
}
const INVALIDATE_OPTIONS = ['deep']
const PATH_WITHIN_OPTIONS = ['verify']

/** A cache's options, validated, with their defaults. */
export interface ResolvedCacheOptions {
  readonly max: number
  readonly ttlMs: number
  readonly fs: FsAdapter
  readonly now: () => number
}

export function resolveCacheOptions(options: PathCacheOptions | undefined): ResolvedCacheOptions {
  assertOptions('options', options)
  assertKnownKeys('createPathCache(options)', options, CACHE_OPTIONS, LRU_CACHE_NAMES)
  const max = options?.max ?? DEFAULT_MAX
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_LIMIT)
    throw invalidArgument('max', `an integer between 1 and ${MAX_LIMIT}`, max)
  const ttlMs = options?.ttlMs ?? Infinity
  if (typeof ttlMs !== 'number' || Number.isNaN(ttlMs) || ttlMs < 0)
    throw invalidArgument('ttlMs', 'a non-negative number of milliseconds', ttlMs)
  return { max, ttlMs, fs: options?.fs ?? nodeFs, now: options?.now ?? (() => performance.now()) }
}

/** `invalidate()`'s `deep`. */
export function parseInvalidate(options: InvalidateOptions | undefined): boolean {
  assertOptions('options', options)
  assertKnownKeys('invalidate(path, options)', options, INVALIDATE_OPTIONS)
  const deep = options?.deep ?? false
  if (typeof deep !== 'boolean') throw invalidArgument('options.deep', 'a boolean', deep)
  return deep
}

/** `isPathWithin()`'s `verify`. */
export function parseWithin(options: IsPathWithinOptions | undefined): boolean {
  assertOptions('options', options)
  assertKnownKeys('isPathWithin(root, target, options)', options, PATH_WITHIN_OPTIONS)
  const verify = options?.verify ?? false
  if (typeof verify !== 'boolean') throw invalidArgument('options.verify', 'a boolean', verify)
  return verify
}
