import { stat as statWithCallback, statSync } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { resolveFormat } from '@sessiontape/recorder/internal'
import { fileStatOf, statOf, type FileStat } from '../files/file-stat.js'
import type { ConversationEvent } from '../model.js'
import { searchableText } from '../search/searchable-text.js'
import { addToFilter, newFilter, type TrigramCollector } from '../search/trigram-filter.js'
import { digestOf, type CachedEntry } from './cache-store.js'
import { checksum } from './checksum.js'
import { isCompressedName, type FoundFile } from './discover.js'
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

export { statOf, type FileStat }

/**
 * Stats every file, at most `concurrency` at once, through `fs.stat`'s callbacks (a warm refresh of 3,000
 * files spent more on a promise per stat than on the stats themselves), or one after the other with
 * `statSync` (`'blocking'`: no thread-pool round trip, no callback). Never rejects: a file that cannot be
 * stat'ed is undefined, as in {@link statOf}.
 */
export async function statAll(
  files: readonly string[],
  concurrency: number | 'blocking',
): Promise<(FileStat | undefined)[]> {
  const infos = new Array<FileStat | undefined>(files.length)
  if (files.length === 0) return infos
  if (concurrency === 'blocking') {
    for (let at = 0; at < files.length; at++) {
      try {
        const info = statSync(files[at]!, { throwIfNoEntry: false })
        infos[at] = info === undefined ? undefined : fileStatOf(info)
      } catch {
        // Not ours to read (EACCES), or a path that is no longer a path (ENOTDIR): undefined says so.
      }
    }
    return infos
  }
  return await new Promise((resolve) => {
    let next = 0
    let done = 0
    const start = (): void => {
      const at = next++
      statWithCallback(files[at]!, (error, info) => {
        infos[at] = error === null ? fileStatOf(info) : undefined
        if (++done === files.length) resolve(infos)
        else if (next < files.length) start()
      })
    }
    for (let lane = 0; lane < Math.min(concurrency, files.length); lane++) start()
  })
}

/** Reads a new or changed file (its tail when it was appended to) into a new entry. */
export async function refreshFile(
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
      filter ??= newFilter()
      const set = (append ? (old.filter?.set ?? 0) : 0) + addToFilter(filter, keys)
      filterField = { set, bytes: filter }
    }
    const { head, edge } = await checksums(found.file, end.offset)
    const entry: CachedEntry = {
      ...base,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
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
  info: FileStat | undefined,
  note: string,
): CachedEntry {
  return {
    ...base,
    size: info?.size ?? 0,
    mtimeMs: info?.mtimeMs ?? 0,
    ctimeMs: info?.ctimeMs ?? 0,
    ino: info?.ino ?? 0,
    format: 'sessiontape',
    read: { offset: 0, line: 1 },
    head: 0,
    edge: 0,
    digest: emptyDigest(),
    first: null,
    last: null,
    note,
  }
}
