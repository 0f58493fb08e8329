/**
 * The catalog cache on disk: `<cacheDir>/catalog-v3/<nn>.bin`, 32 shards, a session file's entry in the
 * shard its path hashes to, only in a private directory of ours and only from files of ours (private-dir.ts).
 * The files are the truth; this is a copy that saves reading them again:
 *
 *   "STCAT07\n"                 8 bytes, the format (a different version is ignored and rebuilt); also
 *                               bumped when what a digest holds is read by other rules (07: the file key
 *                               of file-key.ts, long lines indexed), so no stale digest is served
 *   u32 LE  i, then i bytes     the index: a JSON array, one StoredEntry per file (the entry without its
 *                               digest: path, key, size, mtime, format, read point, checksums, seenAt,
 *                               note, first and last times, its filter's bits set and row, and `d`: where
 *                               its digest is in the digests, in bytes)
 *   u32 LE  checksum of those i bytes (checksum.ts)
 *   u32 LE  d, then d bytes     the digests: a JSON array, one per row, in the same order
 *   u32 LE  checksum of those d bytes
 *   u32 LE  r                   rows: the shard's files that have a filter
 *   FILTER_COLUMNS × (⌈r/8⌉ + 4) the filters transposed (trigram-filter.ts): bucket c's run of r bits (file
 *                               row i at bit i), then a u32 LE check of that run, of c and of the index's
 *                               checksum — a query reads only its buckets' runs, each checked on its own
 *   u32 LE  r again              (a shard cut short or overwritten at its end does not end with it)
 *
 * Why an index apart from the digests: a warm search compares every file's stat with its row and orders
 * the sessions by time, but looks at the digest (id, title, counts, usage) of only the few sessions its
 * filters let through. Parsing 3,000 digests (3.2 MB of JSON, ~15 MB of objects a short process then
 * garbage-collects) was the largest part of a warm search; the index is ~0.7 MB of arrays of numbers and
 * strings, parsed at once, and a digest is parsed from its slice when first asked for (a listing parses
 * them all, in one JSON.parse).
 *
 * The table has no checksum over all of it (a search would have to read it all), but every run has its own
 * check, tied to its bucket and to the index it belongs to: a run overwritten, zeroed or moved does not
 * check, and then the shard's filters are rebuilt from the files (a damaged run must never rule a file out).
 * A listing or a search reads the index and the digests (the first 128 KiB, then the rest of a bigger
 * shard); a search reads, through the same open file (so a shard renamed over meanwhile cannot mix in), the
 * runs of its query's buckets — a few dozen bytes each — instead of every file's filter (~28 MB for 3,000
 * sessions); a refresh that rewrites a shard reads it whole. A shard that does not read back exactly (short,
 * wrong magic, a length or checksum that does not match, JSON that does not parse) is treated as empty: its
 * sessions are read from their files again and the shard is rewritten; a table that does not read back
 * costs only the filters. A shard is replaced whole by a new file renamed over it (never edited in place):
 * a reader sees the old shard or the new one; of two processes saving one shard, the later rename wins.
 * The checksums tell damage, not forgery: what keeps out a shard someone else wrote is who may write here.
 *
 * This file is the format and the store; the table's runs are in shard-table.ts, the bounded reads in
 * shard-reader.ts, the directory's checks in private-dir.ts, older caches in old-caches.ts.
 */
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { checksum } from './checksum.js'
import { FILTER_BYTES, FILTER_COLUMNS, transpose, untranspose } from '../search/trigram-filter.js'
import type { ReadPoint } from './read-events.js'
import type { DigestState } from './session-digest.js'
import { OLD_SUBDIRS, removeOldCache } from './old-caches.js'
import { privateCatalogDir, type CacheDirError } from './private-dir.js'
import { blockingHandle, MAX_SHARD_BYTES, SHARD_READ_FLAGS, ShardReader } from './shard-reader.js'
import { pitchOf, tableChecks, writeRunChecks } from './shard-table.js'

export { MAX_SHARD_BYTES } from './shard-reader.js'

/** Shards: a change rewrites one (~0.8 MB for 3,000 sessions); a query reads ~11 small runs of each. */
export const SHARDS = 32
const MAGIC = Buffer.from('STCAT07\n')
const CACHE_SUBDIR = 'catalog-v3'
/** A temp file is made new, never through a link or over anything already there, readable by us alone. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW
/** Entries kept per shard (the least recently seen go first): 32 × 8,192 sessions in all. */
export const MAX_ENTRIES_PER_SHARD = 8192
/**
 * Files with a filter per shard (the least recently seen lose theirs first): 32 × 4,096 sessions; a shard's
 * table is then 32 MiB. A session without a filter is read by every search (slower, never wrong).
 */
export const MAX_FILTER_ROWS_PER_SHARD = 4096
const HEADER_BYTES = MAGIC.length + 4

/** What the cache knows of one session file. */
export interface CachedEntry {
  readonly file: string
  /** A subagent transcript's session file. */
  readonly parent?: string
  /** A session of ours kept in segments: its later files, read with `file` (discover.ts's FoundFile). */
  readonly segments?: readonly string[]
  /**
   * The file as it was when read (file-key.ts): device, inode, size, mtime and change time in ns; any
   * difference means it is read again. `id` is the device and inode alone (an append keeps them).
   */
  readonly key: string
  readonly id: string
  readonly size: number
  /** For display and ordering only (a session without times goes by its mtime). */
  readonly mtimeMs: number
  readonly format: TranscriptFormat
  /** Where the read stopped: an append is read from here. */
  readonly read: ReadPoint
  /** crc32 of the file's first bytes and of the bytes just before `read.offset`: an append keeps both. */
  readonly head: number
  readonly edge: number
  /**
   * What the file holds (id, title, counts, usage). Read it with {@link digestOf}: an entry a search loaded
   * has it still as JSON in the shard's digests (`stored`), parsed when first asked for.
   */
  readonly digest?: DigestState
  /** Where the digest of an entry loaded for a search is: the shard's digests part and its byte range. */
  readonly stored?: Buffer
  readonly d?: readonly [at: number, length: number]
  /**
   * The digest's first and last times (epoch ms, null while none), kept beside it: a search orders and
   * filters every session by them and asks for the digest of only the sessions it reads.
   */
  readonly first: number | null
  readonly last: number | null
  /** Why the file could not be read (listed anyway, with this note). */
  readonly note?: string
  /** With `note`: the reason alone (an error code such as `EACCES`, or `not a regular file`). */
  readonly unreadable?: string
  /** When a run last found this file (ms): the least recently seen are dropped first past a bound. */
  readonly seenAt: number
  /**
   * The search filter over the same bytes as `digest`, when it has been built: `set` bits; its row
   * (`bytes`) when the shard was read whole or the file was just read; `matches` when the shard was
   * loaded for a query (whether the row has every bucket of the query).
   */
  readonly filter?: { readonly set: number; bytes?: Uint8Array; matches?: boolean }
}

/** One entry in a shard's index: everything but its digest, and where that is. */
type StoredEntry = Omit<CachedEntry, 'digest' | 'stored' | 'filter'> & {
  readonly filter?: { readonly set: number; readonly row: number }
  readonly d: readonly [at: number, length: number]
}

/**
 * What a load reads of a shard: `'entries'` the index and digests (a listing); `'all'` the filters too, as
 * rows (a shard about to be rewritten); buckets (a query's) the index, the digests (parsed when asked for)
 * and those buckets' runs only.
 */
export type LoadFilters = 'entries' | 'all' | readonly number[]

export function shardOf(file: string): number {
  // FNV-1a over the path's UTF-16 units: stable across runs and machines.
  let hash = 0x811c9dc5
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % SHARDS
}

export class CatalogStore {
  /** The checked catalog directory (private-dir.ts), or undefined: nothing is read or written on disk. */
  readonly #dir: string | undefined
  /** Why the cache directory is not used (told to the caller once, by refreshCatalog). */
  readonly refused: CacheDirError | undefined
  /** Whether this store has removed the caches of older formats (once per process). */
  #oldRemoved = false

  /** Shards are read with synchronous calls (`CatalogOptions.blocking`). */
  readonly #blocking: boolean

  constructor(cacheDir: string, blocking = false) {
    const dir = privateCatalogDir(cacheDir, CACHE_SUBDIR)
    this.#dir = typeof dir === 'string' ? dir : undefined
    this.refused = typeof dir === 'string' ? undefined : dir
    this.#blocking = blocking
  }

  #shardPath(dir: string, shard: number): string {
    return path.join(dir, `${String(shard).padStart(2, '0')}.bin`)
  }

  /**
   * The shard's entries by file; empty when the shard is missing, is not a file of ours (ShardReader.open),
   * or does not read back exactly — and always when the cache directory was refused.
   */
  async load(shard: number, filters: LoadFilters): Promise<Map<string, CachedEntry>> {
    const entries = new Map<string, CachedEntry>()
    if (this.#dir === undefined) return entries
    const file = this.#shardPath(this.#dir, shard)
    let handle
    try {
      handle = this.#blocking ? blockingHandle(file) : await open(file, SHARD_READ_FLAGS)
    } catch {
      // Missing (first run, or deleted), or a link (O_NOFOLLOW): rebuilt from the files.
      return entries
    }
    try {
      const shardFile = await ShardReader.open(handle, filters === 'all')
      if (shardFile === undefined || !(await shardFile.has(HEADER_BYTES))) return entries
      const bytes = shardFile.bytes
      if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return entries
      // The index, its checksum and the digests' length; then the digests, their checksum and the row count.
      const indexLength = bytes.readUInt32LE(MAGIC.length)
      const indexAt = HEADER_BYTES
      if (!(await shardFile.has(indexAt + indexLength + 8))) return entries
      const digestsLength = shardFile.bytes.readUInt32LE(indexAt + indexLength + 4)
      const digestsAt = indexAt + indexLength + 8
      const tableAt = digestsAt + digestsLength + 8
      if (!(await shardFile.has(tableAt))) return entries
      const all = shardFile.bytes
      const seed = all.readUInt32LE(indexAt + indexLength)
      const index = all.subarray(indexAt, indexAt + indexLength)
      const digests = all.subarray(digestsAt, digestsAt + digestsLength)
      if (checksum(index) !== seed || checksum(digests) !== all.readUInt32LE(digestsAt + digestsLength))
        return entries
      const stored = JSON.parse(index.toString('utf8')) as StoredEntry[]
      const rows = all.readUInt32LE(tableAt - 4)
      // The table is whole when the file ends where its row count says, with the count again.
      const tableOk =
        rows <= MAX_FILTER_ROWS_PER_SHARD && shardFile.size === tableAt + FILTER_COLUMNS * pitchOf(rows) + 4
      let rowsOf: Uint8Array[] | undefined
      let matching: Uint8Array | undefined
      if (tableOk && filters === 'all') {
        if (
          (await shardFile.has(shardFile.size)) &&
          shardFile.bytes.readUInt32LE(shardFile.size - 4) === rows
        ) {
          const table = shardFile.bytes.subarray(tableAt, shardFile.size - 4)
          if (tableChecks(table, rows, seed)) rowsOf = untranspose(table, rows, pitchOf(rows))
        }
      } else if (tableOk && typeof filters !== 'string') {
        matching = await shardFile.matchingRows(tableAt, rows, seed, filters)
      }
      // A listing or a rewrite needs every digest: one parse of them all. A search parses a digest from its
      // slice when it is first asked for (most of a warm search's entries never are).
      const parsed =
        typeof filters === 'string' ? (JSON.parse(digests.toString('utf8')) as DigestState[]) : undefined
      if (parsed !== undefined && parsed.length !== stored.length) return entries
      for (let at = 0; at < stored.length; at++) {
        // The parsed object becomes the entry (no copy of 3,000 entries per run, no property defined per
        // entry: both cost a short process more than the parse): its filter is replaced, its digest added.
        const entry = stored[at] as Mutable<CachedEntry> & {
          filter?: StoredEntry['filter'] | CachedEntry['filter']
        }
        const { filter } = entry as StoredEntry
        if (filter !== undefined) {
          const row = filter.row
          const known = Number.isSafeInteger(row) && row >= 0 && row < rows
          let loaded: CachedEntry['filter']
          if (known && rowsOf !== undefined) loaded = { set: filter.set, bytes: rowsOf[row]! }
          else if (known && matching !== undefined)
            loaded = { set: filter.set, matches: (matching[row >>> 3]! & (1 << (row & 7))) !== 0 }
          // A listing keeps the filter's presence (it is saved again only from a shard read whole).
          else if (known && filters === 'entries') loaded = { set: filter.set }
          if (loaded === undefined) delete entry.filter
          else entry.filter = loaded
        }
        if (parsed !== undefined) entry.digest = parsed[at]!
        else entry.stored = digests
        entries.set(entry.file, entry)
      }
      return entries
    } catch {
      // Corrupt in a way the checksums did not catch (a JSON shape from another version): rebuilt.
      entries.clear()
      return entries
    } finally {
      await handle.close()
    }
  }

  /**
   * Replaces the shard with `entries`, bounded (see the constants), atomically: a temp file in the cache
   * directory renamed over the old one. Only filters whose row is known are kept (the caller loads a shard
   * with `'all'` before changing it); an entry without one gets it rebuilt when a search needs it.
   */
  async save(shard: number, entries: Iterable<CachedEntry>): Promise<void> {
    const dir = this.#dir
    // The directory was refused: the entries live in memory for this call only.
    if (dir === undefined) return
    const kept = [...entries].sort((a, b) => b.seenAt - a.seenAt).slice(0, MAX_ENTRIES_PER_SHARD)
    const rows: Uint8Array[] = []
    // The digests' JSON array, and each digest's byte range in it (from 1: after the `[`).
    const digestTexts: string[] = []
    let digestAt = 1
    const index: StoredEntry[] = kept.map((entry) => {
      const { filter, digest: _digest, stored: _stored, d: _d, ...rest } = entry
      const digest = JSON.stringify(digestOf(entry))
      const length = Buffer.byteLength(digest)
      // After the comma that separates it from the one before.
      if (digestTexts.length > 0) digestAt++
      digestTexts.push(digest)
      const d = [digestAt, length] as const
      digestAt += length
      const bytes = filter?.bytes
      if (
        filter === undefined ||
        bytes === undefined ||
        bytes.length !== FILTER_BYTES ||
        rows.length >= MAX_FILTER_ROWS_PER_SHARD
      )
        return { ...rest, d }
      rows.push(bytes)
      return { ...rest, filter: { set: filter.set, row: rows.length - 1 }, d }
    })
    const json = Buffer.from(JSON.stringify(index))
    const digests = Buffer.from(`[${digestTexts.join(',')}]`)
    const seed = checksum(json)
    const table = transpose(rows, pitchOf(rows.length))
    writeRunChecks(table, rows.length, seed)
    const out = Buffer.allocUnsafe(MAGIC.length + 4 + json.length + 8 + digests.length + 8 + table.length + 4)
    let at = MAGIC.copy(out, 0)
    at = out.writeUInt32LE(json.length, at)
    at += json.copy(out, at)
    at = out.writeUInt32LE(seed, at)
    at = out.writeUInt32LE(digests.length, at)
    at += digests.copy(out, at)
    at = out.writeUInt32LE(checksum(digests), at)
    at = out.writeUInt32LE(rows.length, at)
    out.set(table, at)
    at += table.length
    out.writeUInt32LE(rows.length, at)
    if (out.length > MAX_SHARD_BYTES) {
      throw new RangeError(
        `catalog shard ${shard} would be ${out.length} bytes, over ${MAX_SHARD_BYTES}: not saved`,
      )
    }
    const target = this.#shardPath(dir, shard)
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    let made = false
    try {
      // A new file (O_EXCL: not over anything, O_NOFOLLOW: not through a link) in the private directory,
      // renamed over the shard: a link put at the shard's name is replaced, never written through.
      const handle = await open(temp, TEMP_FLAGS, 0o600)
      made = true
      try {
        await handle.writeFile(out)
      } finally {
        await handle.close()
      }
      await rename(temp, target)
    } catch (error) {
      // Only what this call made is removed: a file already at the temp's name is not ours.
      if (made) await rm(temp, { force: true })
      throw error
    }
    if (!this.#oldRemoved) {
      this.#oldRemoved = true
      const parent = path.dirname(dir)
      for (const old of OLD_SUBDIRS) await removeOldCache(path.join(parent, old))
    }
  }
}

/** An entry's digest: parsed from the shard's digests (and kept) when the entry was loaded for a search. */
export function digestOf(entry: CachedEntry): DigestState {
  if (entry.digest !== undefined) return entry.digest
  const [at, length] = entry.d!
  const digest = JSON.parse(entry.stored!.toString('utf8', at, at + length)) as DigestState
  ;(entry as Mutable<CachedEntry>).digest = digest
  return digest
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
