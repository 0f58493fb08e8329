/**
 * The catalog cache on disk: `<cacheDir>/catalog-v1/<nn>.bin`, 64 shards, a session file's entry in the
 * shard its path hashes to. The files are the truth; this is a copy that saves reading them again:
 *
 *   "STCAT03\n"                 8 bytes, the format (a different version is ignored and rebuilt)
 *   u32 LE  n, then n bytes     JSON { entries: CachedEntry[] }, with each filter's place in the blob
 *   u32 LE  checksum of those n bytes (checksum.ts)
 *   u32 LE  m, then m bytes     the Bloom filters, back to back (each a whole number of 8-byte words)
 *   u32 LE  m again              (a shard cut short or overwritten at its end does not end with it)
 *
 * The filters carry no checksum of their own: a shard is only ever replaced whole by a rename, so they are
 * torn only if the JSON's lengths or checksum are too; summing ~30 MB of filters cost a warm search more
 * than everything else it reads. A search reads a whole shard with one read call; a listing its first
 * 128 KiB (the JSON part of most shards), then the rest of a bigger JSON part.
 * A shard that does not read back exactly (short, wrong magic, a length or checksum that does not match,
 * JSON that does not parse) is treated as empty: its sessions are read from their files again and the shard is
 * rewritten. `list` reads only the JSON part; `search` reads the filters too. A shard is replaced whole by
 * a new file renamed over it (never edited in place), so a reader sees the old shard or the new one; two
 * processes saving the same shard at once each write a complete file, and the later rename wins (what the
 * other one learnt is learnt again on the next run).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { checksum } from './checksum.js'
import type { ReadPoint } from './read-events.js'
import type { DigestState } from './session-digest.js'

export const SHARDS = 64
const MAGIC = Buffer.from('STCAT03\n')
const CACHE_SUBDIR = 'catalog-v1'
/** Entries kept per shard (the least recently seen go first): 64 × 8,192 sessions in all. */
export const MAX_ENTRIES_PER_SHARD = 8192
/** Filter bytes kept per shard (the least recently seen lose theirs first): 64 × 16 MiB at most. */
export const MAX_FILTER_BYTES_PER_SHARD = 16 * 1024 * 1024
/**
 * The first read of a shard when listing: its JSON part is ~1 KiB per session (3,000 sessions in 64 shards:
 * ~50 KiB each); a bigger one takes one more read. A search reads the whole shard at once.
 */
const LIST_FIRST_READ_BYTES = 128 * 1024
const HEADER_BYTES = MAGIC.length + 4

/** What the cache knows of one session file. */
export interface CachedEntry {
  readonly file: string
  /** A subagent transcript's session file. */
  readonly parent?: string
  /** The file as it was when read: a different size, mtime or inode means it is read again. */
  readonly size: number
  readonly mtimeMs: number
  readonly ino: number
  readonly format: TranscriptFormat
  /** Where the read stopped: an append is read from here. */
  readonly read: ReadPoint
  /** crc32 of the file's first bytes and of the bytes just before `read.offset`: an append keeps both. */
  readonly head: number
  readonly edge: number
  readonly digest: DigestState
  /** Why the file could not be read (listed anyway, with this note). */
  readonly note?: string
  /** When a run last found this file (ms): the least recently seen are dropped first past a bound. */
  readonly seenAt: number
  /** The search filter over the same bytes as `digest`, when it has been built. */
  readonly filter?: { readonly bits: number; readonly set: number; bytes?: Uint8Array }
}

interface StoredEntry extends Omit<CachedEntry, 'filter'> {
  readonly filter?: { readonly bits: number; readonly set: number; readonly at: number }
}

export function shardOf(file: string): number {
  // FNV-1a over the path's UTF-16 units: stable across runs and machines.
  let hash = 0x811c9dc5
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % SHARDS
}

export class CatalogStore {
  readonly #dir: string

  constructor(cacheDir: string) {
    this.#dir = path.join(cacheDir, CACHE_SUBDIR)
  }

  #shardPath(shard: number): string {
    return path.join(this.#dir, `${String(shard).padStart(2, '0')}.bin`)
  }

  /** The shard's entries by file; empty when the shard is missing or does not read back exactly. */
  async load(shard: number, withFilters: boolean): Promise<Map<string, CachedEntry>> {
    const entries = new Map<string, CachedEntry>()
    let handle
    try {
      handle = await open(this.#shardPath(shard), 'r')
    } catch {
      // Missing (first run, or deleted): rebuilt from the files.
      return entries
    }
    try {
      const shardFile = await ShardReader.open(handle, withFilters)
      if (!(await shardFile.has(HEADER_BYTES))) return entries
      const bytes = shardFile.bytes
      if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return entries
      const jsonLength = bytes.readUInt32LE(MAGIC.length)
      const jsonAt = HEADER_BYTES
      // Through the JSON's checksum and the blob's length.
      if (!(await shardFile.has(jsonAt + jsonLength + 8))) return entries
      const json = shardFile.bytes.subarray(jsonAt, jsonAt + jsonLength)
      if (checksum(json) !== shardFile.bytes.readUInt32LE(jsonAt + jsonLength)) return entries
      const stored = (JSON.parse(json.toString('utf8')) as { entries: StoredEntry[] }).entries
      let blob: Buffer | undefined
      if (withFilters) {
        const blobAt = jsonAt + jsonLength + 8
        const blobLength = shardFile.bytes.readUInt32LE(blobAt - 4)
        if (
          (await shardFile.has(blobAt + blobLength + 4)) &&
          shardFile.bytes.readUInt32LE(blobAt + blobLength) === blobLength
        )
          blob = shardFile.bytes.subarray(blobAt, blobAt + blobLength)
      }
      for (const entry of stored) {
        const { filter } = entry
        if (filter === undefined) {
          entries.set(entry.file, entry)
          continue
        }
        // The parsed object becomes the entry (no copy of 3,000 entries per run): only its filter is replaced.
        const bytes = blob?.subarray(filter.at, filter.at + filter.bits / 8)
        ;(entry as { filter?: CachedEntry['filter'] }).filter = {
          bits: filter.bits,
          set: filter.set,
          ...(bytes === undefined ? {} : { bytes }),
        }
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
   * directory renamed over the old one. An entry whose filter bytes are unknown (loaded without filters)
   * keeps no filter: it is rebuilt when a search needs it.
   */
  async save(shard: number, entries: Iterable<CachedEntry>): Promise<void> {
    const kept = [...entries].sort((a, b) => b.seenAt - a.seenAt).slice(0, MAX_ENTRIES_PER_SHARD)
    const blobs: Uint8Array[] = []
    let blobLength = 0
    const stored: StoredEntry[] = kept.map((entry) => {
      const { filter, ...rest } = entry
      const bytes = filter?.bytes
      if (
        filter === undefined ||
        bytes === undefined ||
        blobLength + bytes.length > MAX_FILTER_BYTES_PER_SHARD
      )
        return rest
      const at = blobLength
      blobs.push(bytes)
      blobLength += bytes.length
      return { ...rest, filter: { bits: filter.bits, set: filter.set, at } }
    })
    const json = Buffer.from(JSON.stringify({ entries: stored }))
    const blob = Buffer.concat(blobs, blobLength)
    const out = Buffer.allocUnsafe(MAGIC.length + 4 + json.length + 8 + blob.length + 4)
    let at = MAGIC.copy(out, 0)
    at = out.writeUInt32LE(json.length, at)
    at += json.copy(out, at)
    at = out.writeUInt32LE(checksum(json), at)
    at = out.writeUInt32LE(blob.length, at)
    at += blob.copy(out, at)
    out.writeUInt32LE(blob.length, at)
    await mkdir(this.#dir, { recursive: true, mode: 0o700 })
    const target = this.#shardPath(shard)
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await writeFile(temp, out, { mode: 0o600, flag: 'wx' })
      await rename(temp, target)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }
}

/** The start of a shard file, read on demand: one read for most shards, more only for a bigger one. */
class ShardReader {
  readonly #handle: FileHandle
  readonly #size: number
  readonly #firstRead: number
  /** The bytes read so far, from offset 0. */
  #bytes: Buffer = Buffer.alloc(0)

  private constructor(handle: FileHandle, size: number, firstRead: number) {
    this.#handle = handle
    this.#size = size
    this.#firstRead = firstRead
  }

  /** `withFilters`: the whole shard is read at once; else its first bytes (most shards' JSON part). */
  static async open(handle: FileHandle, withFilters: boolean): Promise<ShardReader> {
    const { size } = await handle.stat()
    return new ShardReader(handle, size, withFilters ? size : Math.min(size, LIST_FIRST_READ_BYTES))
  }

  get bytes(): Buffer {
    return this.#bytes
  }

  /** Whether the file has at least `length` bytes (reading them if not read yet). */
  async has(length: number): Promise<boolean> {
    if (length <= this.#bytes.length) return true
    // A length past the end is damage: never allocate what a corrupt header asks for.
    if (length > this.#size) return false
    const wanted = Math.max(length, this.#firstRead)
    const buffer = Buffer.allocUnsafe(wanted)
    this.#bytes.copy(buffer)
    let got = this.#bytes.length
    while (got < wanted) {
      const { bytesRead } = await this.#handle.read(buffer, got, wanted - got, got)
      // Shorter than its size said: changed under us (replaced by a rename keeps this one whole).
      if (bytesRead === 0) return false
      got += bytesRead
    }
    this.#bytes = buffer
    return true
  }
}
