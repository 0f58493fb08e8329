import { LRUCache } from 'lru-cache'
import { normalizeForMatch, pathMatcher } from './path-match.js'
import type { SlimStat } from './slim-stat.js'

/** What one path can have stored: each is a success; failures are never stored. */
export type Kind = 'stat' | 'lstat' | 'realpath'
export type ValueOf<K extends Kind> = K extends 'realpath' ? string : SlimStat

interface Entry {
  /** The key lexically normalised, computed once on insert so invalidation scans stay cheap. */
  readonly norm: string
  stat: SlimStat | undefined
  statAt: number
  lstat: SlimStat | undefined
  lstatAt: number
  realpath: string | undefined
  realpathAt: number
}

const AT = { stat: 'statAt', lstat: 'lstatAt', realpath: 'realpathAt' } as const

/**
 * One LRU of paths (bounded by count) for every operation, sync and async alike, so both modes read and
 * write the same answers. TTL is per answer, not per path, because a path's stat and realpath are
 * stored at different times.
 */
export class Store {
  readonly #lru: LRUCache<string, Entry>
  // The same entries in a plain Map, kept in step through `dispose`: invalidate() scans every entry, and
  // iterating lru-cache costs ~10x more per entry than a Map (140 µs vs 14 µs for 1024 entries here).
  readonly #index = new Map<string, Entry>()
  /** `Infinity` when there is no TTL, which also skips reading the clock on a hit. */
  readonly #ttlMs: number
  readonly #now: () => number
  evictions = 0

  constructor(max: number, ttlMs: number, now: () => number) {
    this.#ttlMs = ttlMs
    this.#now = now
    this.#lru = new LRUCache<string, Entry>({
      max,
      dispose: (_value, key, reason) => {
        this.#index.delete(key)
        if (reason === 'evict') this.evictions++
      },
    })
  }

  get size(): number {
    return this.#lru.size
  }

  get<K extends Kind>(kind: K, key: string): ValueOf<K> | undefined {
    const entry = this.#lru.get(key)
    if (entry === undefined) return undefined
    const value = entry[kind] as ValueOf<K> | undefined
    if (value === undefined || this.#ttlMs === Infinity) return value
    if (this.#now() - entry[AT[kind]] < this.#ttlMs) return value
    entry[kind] = undefined
    if (entry.stat === undefined && entry.lstat === undefined && entry.realpath === undefined)
      this.#lru.delete(key)
    return undefined
  }

  set<K extends Kind>(kind: K, key: string, value: ValueOf<K>): void {
    if (this.#ttlMs === 0) return
    let entry = this.#lru.get(key)
    if (entry === undefined) {
      entry = {
        norm: normalizeForMatch(key),
        stat: undefined,
        statAt: 0,
        lstat: undefined,
        lstatAt: 0,
        realpath: undefined,
        realpathAt: 0,
      }
      this.#lru.set(key, entry)
      this.#index.set(key, entry)
    }
    // A realpath equal to its key (the common case) shares the key's string instead of keeping a copy.
    ;(entry as Record<Kind, unknown>)[kind] = kind === 'realpath' && value === key ? key : value
    if (this.#ttlMs !== Infinity) entry[AT[kind]] = this.#now()
  }

  /**
   * Drops every path that is `base` (or under it, with `deep`), and every path whose stored realpath
   * is — the aliases reached through symlinks. If `base` itself has a stored realpath elsewhere, paths
   * at (or under) that real location go too. O(size): a scan of at most `max` entries.
   */
  invalidate(base: string, deep: boolean): number {
    const own = this.#lru.peek(base)?.realpath
    const targets = own !== undefined && own !== base ? [base, own] : [base]
    const matchers = targets.map((target) => pathMatcher(target, deep))
    const doomed: string[] = []
    for (const [key, entry] of this.#index) {
      for (const matches of matchers) {
        if (matches(entry.norm) || (entry.realpath !== undefined && matches(entry.realpath))) {
          doomed.push(key)
          break
        }
      }
    }
    for (const key of doomed) this.#lru.delete(key)
    return doomed.length
  }

  clear(): number {
    const dropped = this.#lru.size
    this.#lru.clear()
    this.#index.clear()
    return dropped
  }
}
