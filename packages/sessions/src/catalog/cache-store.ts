/**
 * The catalog cache on disk: `<cacheDir>/catalog-v1/<nn>.bin`, 64 shards, a session file's entry in the
 * shard its path hashes to. The files are the truth; this is a copy that saves reading them again:
 *
 *   "STCAT02\n"                 8 bytes, the format (a different version is ignored and rebuilt)
 *   u32 LE  n, then n bytes     JSON { entries: CachedEntry[] }, with each filter's place in the blob
 *   u32 LE  crc32 of those n bytes
 *   u32 LE  m, then m bytes     the Bloom filters, back to back (each a whole number of 8-byte words)
 *   u32 LE  m again              (a shard cut short or overwritten at its end does not end with it)
 *
 * The filters carry no checksum of their own: a shard is only ever replaced whole by a rename, so they are
 * torn only if the JSON's lengths or checksum are too; summing ~30 MB of filters cost a warm search more
 * than everything else it reads.
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
import { crc32 } from 'node:zlib'
import type { TranscriptFormat } from '@sessiontape/recorder/internal'
import type { ReadPoint } from './read-events.js'
import type { DigestState } from './session-digest.js'

export const SHARDS = 64
const MAGIC = Buffer.from('STCAT02\n')
const CACHE_SUBDIR = 'catalog-v1'
/** Entries kept per shard (the least recently seen go first): 64 × 8,192 sessions in all. */
export const MAX_ENTRIES_PER_SHARD = 8192
/** Filter bytes kept per shard (the least recently seen lose theirs first): 64 × 16 MiB at most. */
export const MAX_FILTER_BYTES_PER_SHARD = 16 * 1024 * 1024

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
      const head = await readExactly(handle, 0, MAGIC.length + 4)
      if (head === undefined || !head.subarray(0, MAGIC.length).equals(MAGIC)) return entries
      const { size } = await handle.stat()
      const jsonLength = head.readUInt32LE(MAGIC.length)
      const jsonAt = MAGIC.length + 4
      // A length past the end is damage: never allocate what a corrupt header asks for.
      if (jsonAt + jsonLength + 8 > size) return entries
      const json = await readExactly(handle, jsonAt, jsonLength + 8)
      if (json === undefined || crc32(json.subarray(0, jsonLength)) !== json.readUInt32LE(jsonLength))
        return entries
      const stored = (JSON.parse(json.toString('utf8', 0, jsonLength)) as { entries: StoredEntry[] }).entries
      let blob: Buffer | undefined
      if (withFilters) {
        const blobLength = json.readUInt32LE(jsonLength + 4)
        const read =
          jsonAt + jsonLength + 8 + blobLength + 4 > size
            ? undefined
            : await readExactly(handle, jsonAt + jsonLength + 8, blobLength + 4)
        if (read !== undefined && read.readUInt32LE(blobLength) === blobLength) blob = read
      }
      for (const entry of stored) {
        const { filter, ...rest } = entry
        const bytes =
          filter === undefined || blob === undefined
            ? undefined
            : blob.subarray(filter.at, filter.at + filter.bits / 8)
        entries.set(entry.file, {
          ...rest,
          ...(filter === undefined
            ? {}
            : { filter: { bits: filter.bits, set: filter.set, ...(bytes === undefined ? {} : { bytes }) } }),
        })
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
    at = out.writeUInt32LE(crc32(json), at)
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

async function readExactly(
  handle: FileHandle,
  position: number,
  length: number,
): Promise<Buffer | undefined> {
  const buffer = Buffer.allocUnsafe(length)
  let got = 0
  while (got < length) {
    const { bytesRead } = await handle.read(buffer, got, length - got, position + got)
    if (bytesRead === 0) return undefined
    got += bytesRead
  }
  return buffer
}
