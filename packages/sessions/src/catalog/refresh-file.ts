import { open, stat } from 'node:fs/promises'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { resolveFormat } from '@sessiontape/recorder/internal'
import type { ConversationEvent } from '../model.js'
import { forEachChunk } from '../search/long-line.js'
import { searchableText } from '../search/searchable-text.js'
import { addToFilter, newFilter, type TrigramCollector } from '../search/trigram-filter.js'
import { digestOf, type CachedEntry } from './cache-store.js'
import { checksum } from './checksum.js'
import { isCompressedName, type FoundFile } from './discover.js'
import type { FileKey } from './file-key.js'
import { canReadTail, readEvents, type ReadPoint } from './read-events.js'
import { digestEvent, emptyDigest, type DigestState } from './session-digest.js'

/** How many files a refresh found fresh, read from an appended tail, or read whole. */
export interface RefreshStats {
  fresh: number
  appended: number
  read: number
  unreadable: number
}

/** Bytes at the start of a file, and before where a read stopped, whose checksums must hold for an append. */
const HEAD_BYTES = 4096
const EDGE_BYTES = 4096

export { statOf } from '../files/file-stat.js'

/** Reads a new or changed file (its tail when it was appended to) into a new entry. */
export async function refreshFile(
  found: FoundFile,
  info: FileKey | undefined,
  old: CachedEntry | undefined,
  withFilter: boolean,
  collector: TrigramCollector,
  seenAt: number,
  stats: RefreshStats,
  signal: AbortSignal | undefined,
): Promise<CachedEntry> {
  const base = {
    file: found.file,
    ...(found.parent === undefined ? {} : { parent: found.parent }),
    ...(found.segments === undefined ? {} : { segments: found.segments }),
    seenAt,
  }
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
    return unreadableEntry(base, info, reason)
  }
  try {
    const append = old !== undefined && (await appendOnly(found.file, old, info, withFilter))
    let digest: DigestState
    let format: TranscriptFormat
    let from: ReadPoint | undefined
    let filter: Uint8Array | undefined
    if (append) {
      digest = structuredClone(digestOf(old))
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
    // Lines too long to parse: searched in chunks (search/long-line.ts), so their text is indexed too.
    const longLines: { offset: number; length: number }[] = []
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
        overlong: (_line, offset, length) => longLines.push({ offset, length }),
      },
      signal,
      found.segments,
    )
    let filterField: CachedEntry['filter']
    if (withFilter) {
      const compressed = isCompressedName(found.file)
      if (!compressed) {
        for (const { offset, length } of longLines) {
          // Two characters of overlap: every trigram across a chunk's end is whole in the next chunk.
          await forEachChunk(found.file, offset, length, 2, (text) => collector.add(text), signal)
        }
      }
      const keys = collector.keys()
      filter ??= newFilter()
      // A compressed file's long line cannot be read back by its offset: its filter rules nothing out.
      if (compressed && longLines.length > 0) filter.fill(0xff)
      const set = (append ? (old.filter?.set ?? 0) : 0) + addToFilter(filter, keys)
      filterField = { set, bytes: filter }
    }
    const { head, edge } = await checksums(found.file, end.offset)
    const entry: CachedEntry = {
      ...base,
      key: info.key,
      id: info.id,
      size: info.size,
      mtimeMs: info.mtimeMs,
      format,
      read: end,
      head,
      edge,
      digest,
      first: digest.first,
      last: digest.last,
      ...(filterField === undefined ? {} : { filter: filterField }),
    }
    return entry
  } catch (error) {
    if (signal?.aborted === true) throw error
    stats.unreadable++
    const code =
      (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
    return unreadableEntry(base, info, code)
  }
}

/** Whether `info` is `old`'s file with bytes appended (and its filter, if any, can grow with it). */
async function appendOnly(
  file: string,
  old: CachedEntry,
  info: FileKey,
  withFilter: boolean,
): Promise<boolean> {
  if (old.note !== undefined || !canReadTail(old.format) || isCompressedName(file) || old.id !== info.id)
    return false
  // Only growth is an append: a file of the same size with a new mtime was rewritten, and a change between
  // the checked head and edge would go unseen if it were read "from the old end" (nothing to read there).
  if (info.size <= old.size || info.size < old.read.offset) return false
  // A filter is extended by the tail only when its row is at hand (its shard was read whole).
  if (withFilter && old.filter?.bytes === undefined) return false
  const now = await checksums(file, old.read.offset)
  return now.head === old.head && now.edge === old.edge
}

/** Checksums of the first bytes of the file (up to `offset`) and of the bytes just before `offset`. */
async function checksums(file: string, offset: number): Promise<{ head: number; edge: number }> {
  const handle = await open(file, 'r')
  try {
    const headLength = Math.min(HEAD_BYTES, offset)
    const edgeStart = Math.max(0, offset - EDGE_BYTES)
    const head = Buffer.alloc(headLength)
    const edge = Buffer.alloc(offset - edgeStart)
    await handle.read(head, 0, headLength, 0)
    await handle.read(edge, 0, edge.length, edgeStart)
    return { head: checksum(head), edge: checksum(edge) }
  } finally {
    await handle.close()
  }
}

function unreadableEntry(
  base: { file: string; parent?: string; seenAt: number },
  info: FileKey | undefined,
  reason: string,
): CachedEntry {
  return {
    ...base,
    unreadable: reason,
    key: info?.key ?? '',
    id: info?.id ?? '',
    size: info?.size ?? 0,
    mtimeMs: info?.mtimeMs ?? 0,
    format: 'sessiontape',
    read: { offset: 0, line: 1 },
    head: 0,
    edge: 0,
    digest: emptyDigest(),
    first: null,
    last: null,
    note: `transcript unreadable (${reason}); listed so it is not lost`,
  }
}
