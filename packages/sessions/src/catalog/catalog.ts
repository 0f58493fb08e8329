import { open, stat } from 'node:fs/promises'
import path from 'node:path'
import { crc32 } from 'node:zlib'
import { resolveFormat, type TranscriptFormat } from '@sessiontape/recorder/internal'
import type { ConversationEvent } from '../model.js'
import {
  addToFilter,
  filterBitsFor,
  MAX_FILTER_BITS,
  newFilter,
  REBUILD_FILL,
  TrigramCollector,
} from '../search/trigram-filter.js'
import { searchableText } from '../search/searchable-text.js'
import { CatalogStore, shardOf, type CachedEntry } from './cache-store.js'
import { findTranscripts, isCompressedName, type FoundFile, type WalkMode } from './discover.js'
import { canReadTail, readEvents, type ReadPoint } from './read-events.js'
import { digestEvent, emptyDigest, type DigestState } from './session-digest.js'

/** How many files a refresh found fresh, read from an appended tail, or read whole. */
export interface RefreshStats {
  fresh: number
  appended: number
  read: number
  unreadable: number
}

/** A refreshed catalog: every file found, each entry current with its file. */
export interface RefreshedCatalog {
  readonly entries: readonly CachedEntry[]
  readonly stats: RefreshStats
}

export interface RefreshOptions {
  readonly cacheDir: string
  readonly walk: WalkMode
  /** Build (or bring up to date) every file's search filter, and return it. */
  readonly withFilters: boolean
  readonly signal?: AbortSignal | undefined
  /** Receives a failure to save the cache (the refresh still answers from the files). */
  readonly onCacheError?: (error: unknown) => void
  /** @internal Test seam: the clock for `seenAt`. */
  readonly now?: () => number
}

/** Bytes at the start of a file, and before where a read stopped, whose checksums must hold for an append. */
const HEAD_BYTES = 4096
const EDGE_BYTES = 4096
/** Shards loaded or saved at once. */
const IO_CONCURRENCY = 8
/** Files read at once: enough to overlap one file's reads with another's parsing on a busy machine. */
const READ_CONCURRENCY = 4
/** A file's `seenAt` is saved again only when older than this (a refresh that changes nothing writes nothing). */
const SEEN_REFRESH_MS = 24 * 60 * 60 * 1000

/**
 * Brings the cache up to date with the files under `dirs` and returns every file's entry. Reads only what
 * changed: an unchanged file (same size, mtime and inode) is not opened; a file that grew, whose first bytes
 * and bytes before the old end are unchanged, is read from where the last read stopped (formats that are
 * only appended to); anything else is read whole. Only the cache directory is ever written.
 */
export async function refreshCatalog(
  dirs: readonly string[],
  options: RefreshOptions,
): Promise<RefreshedCatalog> {
  const now = options.now ?? Date.now
  const store = new CatalogStore(options.cacheDir)
  const found = new Map<string, FoundFile>()
  for (const dir of dirs) {
    for (const file of await findTranscripts(dir, options.walk))
      if (!found.has(file.file)) found.set(file.file, file)
  }
  const byShard = new Map<number, FoundFile[]>()
  for (const file of found.values()) {
    const shard = shardOf(file.file)
    const list = byShard.get(shard)
    if (list === undefined) byShard.set(shard, [file])
    else list.push(file)
  }
  const stats: RefreshStats = { fresh: 0, appended: 0, read: 0, unreadable: 0 }
  const roots = dirs.map((dir) => path.resolve(dir) + path.sep)
  const shards = [...byShard.keys()]
  // Every shard's entries and every file's stat, first: the work left is the files that changed.
  const loaded = new Map<number, Map<string, CachedEntry>>()
  const infos = new Map<string, FileStat | undefined>()
  await inBatches(shards, IO_CONCURRENCY, async (shard) => {
    const files = byShard.get(shard)!
    let cached = await store.load(shard, options.withFilters)
    const infoOf = await Promise.all(files.map((file) => statOf(file.file)))
    files.forEach((file, i) => infos.set(file.file, infoOf[i]))
    // A shard with work to do keeps its filters up to date even when only listing: load them.
    if (!options.withFilters && files.some((file, i) => !isFresh(cached.get(file.file), infoOf[i], false)))
      cached = await store.load(shard, true)
    loaded.set(shard, cached)
  })
  options.signal?.throwIfAborted()
  const dirty = new Set<number>()
  const work: { file: FoundFile; shard: number }[] = []
  for (const shard of shards) {
    const cached = loaded.get(shard)!
    for (const file of byShard.get(shard)!) {
      const old = cached.get(file.file)
      const info = infos.get(file.file)
      if (old !== undefined && isFresh(old, info, options.withFilters)) {
        stats.fresh++
        if (now() - old.seenAt > SEEN_REFRESH_MS) {
          cached.set(file.file, { ...old, seenAt: now() })
          dirty.add(shard)
        }
      } else work.push({ file, shard })
    }
  }
  // Files are read a few at a time: one file's parse overlaps another's reads (each worker has its own
  // trigram collector, made on first use).
  const collectors: TrigramCollector[] = []
  await inBatches(work, READ_CONCURRENCY, async ({ file, shard }, worker) => {
    const cached = loaded.get(shard)!
    const old = cached.get(file.file)
    const info = infos.get(file.file)
    const withFilter = options.withFilters || old?.filter?.bytes !== undefined
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
    // A file still unreadable in the same way changes nothing on disk: the shard is not rewritten.
    if (!(
      old?.note !== undefined &&
      entry.note === old.note &&
      entry.size === old.size &&
      entry.mtimeMs === old.mtimeMs
    ))
      dirty.add(shard)
  })
  const entries: CachedEntry[] = []
  for (const file of found.values()) entries.push(loaded.get(shardOf(file.file))!.get(file.file)!)
  for (const shard of shards) {
    const cached = loaded.get(shard)!
    // Entries of files that were under a listed directory but are gone: dropped.
    for (const [file, entry] of cached) {
      if (found.has(file) || !roots.some((root) => file.startsWith(root))) continue
      if ((await statOf(entry.file)) === undefined) {
        cached.delete(file)
        dirty.add(shard)
      }
    }
  }
  await inBatches([...dirty], IO_CONCURRENCY, async (shard) => {
    try {
      await store.save(shard, loaded.get(shard)!.values())
    } catch (error) {
      // The cache is only a copy: the entries are already read from the files; the next run reads them again.
      options.onCacheError?.(error)
    }
  })
  return { entries, stats }
}

/** Runs `task` over `items`, at most `concurrency` at once; `worker` numbers the lane (0…concurrency-1). */
async function inBatches<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, worker: number) => Promise<unknown>,
): Promise<void> {
  let next = 0
  const lane = async (worker: number): Promise<void> => {
    while (next < items.length) await task(items[next++]!, worker)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, (_, worker) => lane(worker)))
}

interface FileStat {
  readonly size: number
  readonly mtimeMs: number
  readonly ino: number
  readonly isFile: boolean
}

async function statOf(file: string): Promise<FileStat | undefined> {
  try {
    const info = await stat(file)
    return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, isFile: info.isFile() }
  } catch {
    // Gone, or not ours to read: the caller notes it.
    return undefined
  }
}

function isFresh(old: CachedEntry | undefined, info: FileStat | undefined, withFilter: boolean): boolean {
  return (
    old !== undefined &&
    info !== undefined &&
    old.note === undefined &&
    old.size === info.size &&
    old.mtimeMs === info.mtimeMs &&
    old.ino === info.ino &&
    (!withFilter || old.filter?.bytes !== undefined)
  )
}

/** Reads a new or changed file (its tail when it was appended to) into a new entry. */
async function refreshFile(
  found: FoundFile,
  info: FileStat | undefined,
  old: CachedEntry | undefined,
  withFilter: boolean,
  collector: TrigramCollector,
  seenAt: number,
  stats: RefreshStats,
  signal: AbortSignal | undefined,
): Promise<CachedEntry> {
  const base = { file: found.file, ...(found.parent === undefined ? {} : { parent: found.parent }), seenAt }
  if (info === undefined || !info.isFile) {
    stats.unreadable++
    // Never opened: a FIFO or device could block the read forever, a dangling link has nothing to read.
    const reason =
      info === undefined
        ? await stat(found.file).then(
            () => 'changed while listed',
            (error: NodeJS.ErrnoException) => error.code ?? 'stat failed',
          )
        : 'not a regular file'
    return unreadableEntry(base, info, `transcript unreadable (${reason}); listed so it is not lost`)
  }
  try {
    const append = old !== undefined && (await appendOnly(found.file, old, info, withFilter))
    let digest: DigestState
    let format: TranscriptFormat
    let from: ReadPoint | undefined
    let filter: Uint8Array | undefined
    if (append) {
      digest = structuredClone(old.digest)
      format = old.format
      from = old.read
      filter = old.filter?.bytes === undefined ? undefined : Uint8Array.from(old.filter.bytes)
      stats.appended++
    } else {
      digest = emptyDigest()
      format = await resolveFormat(found.file, 'auto')
      stats.read++
    }
    collector.reset()
    const end = await readEvents(
      found.file,
      format,
      from,
      {
        event: (event: ConversationEvent) => {
          digestEvent(digest, event)
          if (withFilter) {
            const text = searchableText(event)
            if (text !== undefined) collector.add(text.toLowerCase())
          }
        },
        record: (uuid) => {
          digest.recordCount++
          if (uuid !== '') digest.lastUuid = uuid
        },
        problem: () => digest.problemCount++,
      },
      signal,
    )
    let filterField: CachedEntry['filter']
    if (withFilter) {
      const keys = collector.keys()
      filter ??= newFilter(filterBitsFor(keys.length))
      const set = (append ? (old.filter?.set ?? 0) : 0) + addToFilter(filter, keys)
      filterField = { bits: filter.length * 8, set, bytes: filter }
    }
    const { head, edge } = await checksums(found.file, end.offset)
    const entry: CachedEntry = {
      ...base,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ino: info.ino,
      format,
      read: end,
      head,
      edge,
      digest,
      ...(filterField === undefined ? {} : { filter: filterField }),
    }
    return entry
  } catch (error) {
    if (signal?.aborted === true) throw error
    stats.unreadable++
    const code =
      (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
    return unreadableEntry(base, info, `transcript unreadable (${code}); listed so it is not lost`)
  }
}

/** Whether `info` is `old`'s file with bytes appended (and its filter, if any, can grow with it). */
async function appendOnly(
  file: string,
  old: CachedEntry,
  info: FileStat,
  withFilter: boolean,
): Promise<boolean> {
  if (old.note !== undefined || !canReadTail(old.format) || isCompressedName(file) || old.ino !== info.ino)
    return false
  if (info.size < old.size || info.size < old.read.offset) return false
  if (withFilter) {
    const filter = old.filter
    if (filter?.bytes === undefined) return false
    // A filter past its fill can grow: read the whole file into a bigger one instead.
    if (filter.set / filter.bits > REBUILD_FILL && filter.bits < MAX_FILTER_BITS) return false
  }
  const now = await checksums(file, old.read.offset)
  return now.head === old.head && now.edge === old.edge
}

/** crc32 of the first bytes of the file (up to `offset`) and of the bytes just before `offset`. */
async function checksums(file: string, offset: number): Promise<{ head: number; edge: number }> {
  const handle = await open(file, 'r')
  try {
    const headLength = Math.min(HEAD_BYTES, offset)
    const edgeStart = Math.max(0, offset - EDGE_BYTES)
    const head = Buffer.alloc(headLength)
    const edge = Buffer.alloc(offset - edgeStart)
    await handle.read(head, 0, headLength, 0)
    await handle.read(edge, 0, edge.length, edgeStart)
    return { head: crc32(head), edge: crc32(edge) }
  } finally {
    await handle.close()
  }
}

function unreadableEntry(
  base: { file: string; parent?: string; seenAt: number },
  info: FileStat | undefined,
  note: string,
): CachedEntry {
  return {
    ...base,
    size: info?.size ?? 0,
    mtimeMs: info?.mtimeMs ?? 0,
    ino: info?.ino ?? 0,
    format: 'sessiontape',
    read: { offset: 0, line: 1 },
    head: 0,
    edge: 0,
    digest: emptyDigest(),
    note,
  }
}
