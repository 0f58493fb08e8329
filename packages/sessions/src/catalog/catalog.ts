import path from 'node:path'
import { TrigramCollector } from '../search/trigram-filter.js'
import { CatalogStore, shardOf, type CachedEntry } from './cache-store.js'
import { findTranscripts, type FoundFile, type SkippedDir, type WalkMode } from './discover.js'
import { inBatches } from './in-batches.js'
import { keyAll, sessionKeyOf, type FileKey } from './file-key.js'
import { refreshFile, statOf, type RefreshStats } from './refresh-file.js'

export type { RefreshStats } from './refresh-file.js'

/** A refreshed catalog: every file found, each entry current with its file. */
export interface RefreshedCatalog {
  readonly entries: readonly CachedEntry[]
  /** Directories the walk could not read (EACCES), or where its bounds stopped it: sessions may be there. */
  readonly skipped: readonly SkippedDir[]
  readonly stats: RefreshStats
}

export interface RefreshOptions {
  readonly cacheDir: string
  readonly walk: WalkMode
  /** Synchronous walk, `stat`s and cache reads (see `CatalogOptions.blocking`). */
  readonly blocking?: boolean
  /**
   * A search's trigram buckets (`queryColumns`): every file's search filter is built (or brought up to
   * date), and each entry says whether its filter has them all (`filter.matches`, or its row `bytes` when
   * the file or its shard was just read). Absent for a listing.
   */
  readonly query?: readonly number[]
  readonly signal?: AbortSignal | undefined
  /**
   * Receives a failure to save the cache, and once per call a cache directory refused as not private
   * (a `CacheDirError`, private-dir.ts): the refresh still answers from the files.
   */
  readonly onCacheError?: (error: unknown) => void
  /** @internal Test seam: the clock for `seenAt`. */
  readonly now?: () => number
}

/** Shards loaded or saved at once. */
const IO_CONCURRENCY = 8
/** Files `stat`ed at once: enough to keep the thread pool's four threads busy, few enough to bound memory. */
const STAT_CONCURRENCY = 64
/** Files read at once: enough to overlap one file's reads with another's parsing on a busy machine. */
const READ_CONCURRENCY = 4
/** A file's `seenAt` is saved again only when older than this (a refresh that changes nothing writes nothing). */
const SEEN_REFRESH_MS = 24 * 60 * 60 * 1000

/**
 * Brings the cache up to date with the files under `dirs` and returns every file's entry. Reads only what
 * changed: an unchanged file (same device, inode, size, mtime and change time: file-key.ts) is not opened; a file that grew, whose first bytes
 * and bytes before the old end are unchanged, is read from where the last read stopped (formats that are
 * only appended to); anything else is read whole. Only the cache directory is ever written.
 */
export async function refreshCatalog(
  dirs: readonly string[],
  options: RefreshOptions,
): Promise<RefreshedCatalog> {
  const now = options.now ?? Date.now
  const blocking = options.blocking === true
  const store = new CatalogStore(options.cacheDir, blocking)
  if (store.refused !== undefined) options.onCacheError?.(store.refused)
  const found = new Map<string, FoundFile>()
  const skipped: SkippedDir[] = []
  for (const dir of dirs) {
    for (const file of await findTranscripts(dir, options.walk, blocking, skipped))
      if (!found.has(file.file)) found.set(file.file, file)
  }
  // The files in the walk's order, and everything known of each by its position in it (arrays rather than
  // maps keyed by path: a warm call does this for every file, in code that runs mostly unoptimised).
  const files = [...found.values()]
  // Each shard's files, as positions in `files` (a path is hashed once, not again for the answer).
  const byShard = new Map<number, number[]>()
  for (let at = 0; at < files.length; at++) {
    const shard = shardOf(files[at]!.file)
    const list = byShard.get(shard)
    if (list === undefined) byShard.set(shard, [at])
    else list.push(at)
  }
  const stats: RefreshStats = { fresh: 0, appended: 0, read: 0, unreadable: 0 }
  const roots = dirs.map((dir) => path.resolve(dir) + path.sep)
  const shards = [...byShard.keys()]
  const withFilters = options.query !== undefined
  // One clock reading for the freshness of every entry (a file is refreshed at most once a day).
  const startedAt = now()
  // Every shard's entries (and a search's buckets) and every file's stat, all at once (all of it waits on
  // the thread pool, unless blocking): the work left is the files that changed.
  const loaded = new Map<number, Map<string, CachedEntry>>()
  let infos: (FileKey | undefined)[] = []
  await Promise.all([
    inBatches(shards, IO_CONCURRENCY, async (shard) => {
      loaded.set(shard, await store.load(shard, options.query ?? 'entries'))
    }),
    keyAll(
      files.map((file) => file.file),
      blocking ? 'blocking' : STAT_CONCURRENCY,
    ).then(async (all) => {
      // A session kept in segments is keyed on all its files (rare: only those files are stat'ed again).
      for (let at = 0; at < files.length; at++) {
        const segments = files[at]!.segments
        if (segments !== undefined)
          all[at] = sessionKeyOf(all[at], await keyAll(segments, blocking ? 'blocking' : STAT_CONCURRENCY))
      }
      infos = all
    }),
  ])
  options.signal?.throwIfAborted()
  // Each file's entry when it is fresh (the answer for most files of a warm call), found in one pass.
  const entryAt = new Array<CachedEntry | undefined>(files.length)
  // A shard that will be rewritten (a file changed, is new or gone, or was not seen for a day) is read again
  // whole, filters included, so that what it is saved with keeps every other file's filter.
  const gone = new Map<number, string[]>()
  const stale = new Set<number>()
  for (const shard of shards) {
    const cached = loaded.get(shard)!
    let changed = false
    // How many of the shard's entries the walk found: fewer than it holds means some were not found.
    let present = 0
    for (const at of byShard.get(shard)!) {
      const old = cached.get(files[at]!.file)
      if (old !== undefined) present++
      if (isFresh(old, infos[at], withFilters) && startedAt - old!.seenAt <= SEEN_REFRESH_MS)
        entryAt[at] = old
      else changed = true
    }
    if (present < cached.size) {
      for (const [file, entry] of cached) {
        if (found.has(file) || !roots.some((root) => file.startsWith(root))) continue
        // Under a listed directory but not found by the walk: dropped if it is gone.
        if ((await statOf(entry.file)) === undefined) gone.set(shard, [...(gone.get(shard) ?? []), file])
      }
    }
    if (changed || gone.has(shard)) stale.add(shard)
  }
  await inBatches([...stale], IO_CONCURRENCY, async (shard) => {
    loaded.set(shard, await store.load(shard, 'all'))
  })
  options.signal?.throwIfAborted()
  const dirty = new Set<number>()
  for (const [shard, goneFiles] of gone) {
    for (const file of goneFiles) loaded.get(shard)!.delete(file)
    dirty.add(shard)
  }
  for (const shard of shards) {
    if (!stale.has(shard)) stats.fresh += byShard.get(shard)!.length
  }
  const work: { at: number; shard: number }[] = []
  for (const shard of stale) {
    const cached = loaded.get(shard)!
    for (const at of byShard.get(shard)!) {
      const old = cached.get(files[at]!.file)
      if (old !== undefined && isFresh(old, infos[at], withFilters)) {
        stats.fresh++
        if (startedAt - old.seenAt > SEEN_REFRESH_MS) {
          cached.set(old.file, { ...old, seenAt: now() })
          dirty.add(shard)
        }
        entryAt[at] = cached.get(old.file)
      } else {
        entryAt[at] = undefined
        work.push({ at, shard })
      }
    }
  }
  // Files are read a few at a time: one file's parse overlaps another's reads (each worker has its own
  // trigram collector, made on first use).
  const collectors: TrigramCollector[] = []
  await inBatches(work, READ_CONCURRENCY, async ({ at, shard }, worker) => {
    const file = files[at]!
    const cached = loaded.get(shard)!
    const old = cached.get(file.file)
    const info = infos[at]
    const withFilter = withFilters || old?.filter?.bytes !== undefined
    const entry = await refreshFile(
      file,
      info,
      old,
      withFilter,
      (collectors[worker] ??= new TrigramCollector()),
      now(),
      stats,
      options.signal,
    )
    cached.set(file.file, entry)
    entryAt[at] = entry
    // A file still unreadable in the same way changes nothing on disk: the shard is not rewritten.
    if (!(old?.note !== undefined && entry.note === old.note && entry.key === old.key)) dirty.add(shard)
  })
  const entries = entryAt as CachedEntry[]
  await inBatches([...dirty], IO_CONCURRENCY, async (shard) => {
    try {
      await store.save(shard, loaded.get(shard)!.values())
    } catch (error) {
      // The cache is only a copy: the entries are already read from the files; the next run reads them again.
      options.onCacheError?.(error)
    }
  })
  return { entries, skipped, stats }
}

function isFresh(old: CachedEntry | undefined, info: FileKey | undefined, withFilter: boolean): boolean {
  return (
    old !== undefined &&
    info !== undefined &&
    old.note === undefined &&
    old.key === info.key &&
    (!withFilter || old.filter?.bytes !== undefined || old.filter?.matches !== undefined)
  )
}
