import { constants } from 'node:fs'
import { open, readdir } from 'node:fs/promises'
import path from 'node:path'

import { ownershipOfPrefix, sessionOfPrefix } from '../format/file-ownership.js'
import { transcriptFileName } from '../format/record-format.js'
import {
  CONTINUATION_PREFIX_BYTES,
  continuationOfPrefix,
  segmentNameParts,
  type Continuation,
} from '../format/segments.js'

/** One file of a session, in the order the session is read (see format/segments.ts). */
export interface SessionFile {
  readonly path: string
  /** Its place in the session: 1 for the session's path, the continuation's `segment` for a segment. */
  readonly segment: number
  /** What its first line says, when it opens with a continuation record. */
  readonly continuation?: Continuation
}

/**
 * How the files of one directory make our sessions kept in segments: for each such session, its files in
 * reading order. The one rule every reader and walker uses (readers, `listSessions`, the catalog, usage):
 * - a segment is a regular file named `<id>~<n>.jsonl` whose first line is a continuation record of `<id>`
 *   (format/segments.ts) — by its content, never its name alone;
 * - the session's path `<id>.jsonl` is its first file only when it is a regular file of ours whose records
 *   are `<id>`'s; otherwise (someone else's file, another session's, gone) the session starts at its first
 *   segment and that file stands on its own.
 * Only files named like a segment are opened (and the path of a session that has one): linear in `names`.
 */
export interface SegmentedSessions {
  /**
   * The first file's name → every file of its session, in reading order: two or more, or one segment when
   * the session's path is gone and one segment is left.
   */
  readonly byFirst: ReadonlyMap<string, readonly SessionFile[]>
  /** Names read as part of an earlier file of their session: a walker skips them. */
  readonly later: ReadonlySet<string>
}

export async function segmentedSessions(dir: string, names: Iterable<string>): Promise<SegmentedSessions> {
  const bySession = new Map<string, SessionFile[]>()
  for (const name of names) {
    const parts = segmentNameParts(name)
    if (parts === undefined) continue
    const segment = await segmentOf(path.join(dir, name))
    if (segment === undefined) continue
    const files = bySession.get(segment.sessionId) ?? []
    files.push(segment.file)
    bySession.set(segment.sessionId, files)
  }
  const byFirst = new Map<string, readonly SessionFile[]>()
  const later = new Set<string>()
  for (const [sessionId, segments] of bySession) {
    segments.sort((a, b) => a.segment - b.segment || byName(path.basename(a.path), path.basename(b.path)))
    const head = await headOf(dir, sessionId)
    const files = head === undefined ? segments : [head, ...segments]
    byFirst.set(path.basename(files[0]!.path), files)
    for (const file of files.slice(1)) later.add(path.basename(file.path))
  }
  return { byFirst, later }
}

/**
 * The files of the session `filePath` belongs to, in reading order (see {@link segmentedSessions}). A file
 * that is not ours, or is no file of a session kept in segments, is read alone. Never throws: a
 * `filePath` that cannot be read is returned alone, so reading it reports why.
 */
export async function sessionFiles(filePath: string): Promise<SessionFile[]> {
  const alone: SessionFile[] = [{ path: filePath, segment: 1 }]
  const first = await prefixOf(filePath)
  if (first === undefined || ownershipOfPrefix(first.prefix, first.size).verdict !== 'ours') return alone
  const sessionId = sessionOfPrefix(first.prefix)
  if (sessionId === null) return alone
  const name = path.basename(filePath)
  if (name !== transcriptFileName(sessionId) && segmentNameParts(name)?.sessionId !== sessionId) return alone
  const dir = path.dirname(filePath)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    // The directory cannot be listed: the file asked for is still read on its own.
    return alone
  }
  const prefix = `${sessionId}~`
  const { byFirst } = await segmentedSessions(
    dir,
    names.filter((other) => other.startsWith(prefix)),
  )
  for (const files of byFirst.values()) if (files.some((file) => file.path === filePath)) return [...files]
  return alone
}

/**
 * The session and continuation of a file named like a segment (`<sessionId>~<n>.jsonl`) whose first line is
 * a continuation record of that session; undefined for any other file (a link, a FIFO: not a regular file).
 */
async function segmentOf(
  filePath: string,
): Promise<{ readonly sessionId: string; readonly file: SessionFile } | undefined> {
  const parts = segmentNameParts(path.basename(filePath))
  if (parts === undefined) return undefined
  const first = await prefixOf(filePath)
  const continuation =
    first === undefined ? undefined : continuationOfPrefix(first.prefix, first.size, parts.sessionId)
  if (continuation === undefined || continuation.segment < 2) return undefined
  return { sessionId: parts.sessionId, file: { path: filePath, segment: continuation.segment, continuation } }
}

/** The session's path as its first file: a regular file of ours whose records are `sessionId`'s. */
async function headOf(dir: string, sessionId: string): Promise<SessionFile | undefined> {
  const head = path.join(dir, transcriptFileName(sessionId))
  const opening = await prefixOf(head)
  if (opening === undefined || ownershipOfPrefix(opening.prefix, opening.size).verdict !== 'ours')
    return undefined
  if (sessionOfPrefix(opening.prefix) !== sessionId) return undefined
  // The path may itself open with a continuation (written again from its start after `copytruncate`).
  const continuation = continuationOfPrefix(opening.prefix, opening.size, sessionId)
  return { path: head, segment: 1, ...(continuation === undefined ? {} : { continuation }) }
}

function byName(a: string, b: string): number {
  return (segmentNameParts(a)?.n ?? 0) - (segmentNameParts(b)?.n ?? 0) || (a < b ? -1 : a > b ? 1 : 0)
}

/**
 * The first bytes of a regular file (at most CONTINUATION_PREFIX_BYTES) and its size, or undefined for a
 * file that is missing, unreadable, a link (O_NOFOLLOW: a segment is never reached through one) or not a
 * regular file (O_NONBLOCK: a FIFO must not block the read until a writer appears).
 */
async function prefixOf(filePath: string): Promise<{ prefix: Buffer; size: number } | undefined> {
  let handle
  try {
    handle = await open(
      filePath,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0),
    )
  } catch {
    // Missing, unreadable or a link: reading it reports why; it is no file of a segmented session.
    return undefined
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) return undefined
    const buffer = Buffer.alloc(Math.min(info.size, CONTINUATION_PREFIX_BYTES))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return { prefix: buffer.subarray(0, bytesRead), size: info.size }
  } catch {
    // A read error: no known first line (the reader of the file reports the error).
    return undefined
  } finally {
    await handle.close()
  }
}
