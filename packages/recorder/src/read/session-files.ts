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
 * The files of the session `filePath` belongs to, in reading order: the session's path (when it still
 * exists), then every segment the directory holds for it. A file that is not ours, or whose name and first
 * record do not agree on a session, is read alone: nothing is stitched to it. Never throws: a segment that
 * cannot be read is left out, and a `filePath` that cannot be read is returned alone, so reading it reports
 * why.
 */
export async function sessionFiles(filePath: string): Promise<SessionFile[]> {
  const alone: SessionFile[] = [{ path: filePath, segment: 1 }]
  const first = await prefixOf(filePath)
  if (first === undefined || ownershipOfPrefix(first.prefix, first.size).verdict !== 'ours') return alone
  const sessionId = sessionOfPrefix(first.prefix)
  if (sessionId === null) return alone
  const name = path.basename(filePath)
  const isPath = name === transcriptFileName(sessionId)
  const isSegment =
    segmentNameParts(name)?.sessionId === sessionId &&
    (continuationOfPrefix(first.prefix, first.size, sessionId)?.segment ?? 0) >= 2
  if (!isPath && !isSegment) return alone
  const dir = path.dirname(filePath)
  const files: SessionFile[] = []
  const head = path.join(dir, transcriptFileName(sessionId))
  const opening = isPath ? first : await prefixOf(head)
  if (opening !== undefined) {
    // The path may itself open with a continuation (written again from its start after `copytruncate`).
    const continuation = continuationOfPrefix(opening.prefix, opening.size, sessionId)
    files.push({ path: head, segment: 1, ...(continuation === undefined ? {} : { continuation }) })
  }
  files.push(...(await segmentsIn(dir, sessionId)))
  // The file asked for is always read, even if the directory listing missed it (a race with a rename).
  if (!files.some((file) => file.path === filePath)) return alone
  return files
}

/**
 * The session and continuation of a file named like a segment (`<sessionId>~<n>.jsonl`) whose first line is
 * a continuation record of that session; undefined for any other file.
 */
export async function segmentOf(
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

/**
 * Whether the file `name` of the directory `dir`, whose entries are `names`, is read as part of an earlier
 * file there: a segment (by its first line) whose session's path, or a segment of that session with a lower
 * number, is among `names`. A walker that lists sessions, or adds them up, skips such a file: reading the
 * earlier one reads it too, so counting both would count its records twice.
 */
export async function isReadWithAnEarlierFile(
  dir: string,
  name: string,
  names: ReadonlySet<string>,
): Promise<boolean> {
  const parts = segmentNameParts(name)
  if (parts === undefined) return false
  const earlier =
    names.has(transcriptFileName(parts.sessionId)) ||
    [...names].some((other) => {
      const them = segmentNameParts(other)
      return them !== undefined && them.sessionId === parts.sessionId && them.n < parts.n
    })
  return earlier && (await segmentOf(path.join(dir, name))) !== undefined
}

/** The segments of `sessionId` in `dir`, by their continuation's `segment`, then by name. */
async function segmentsIn(dir: string, sessionId: string): Promise<SessionFile[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    // The directory cannot be listed: the file asked for is still read on its own.
    return []
  }
  const found: Array<SessionFile & { readonly n: number }> = []
  for (const name of names) {
    const parts = segmentNameParts(name)
    if (parts?.sessionId !== sessionId) continue
    // Named like a segment but not opening with a continuation of this session: not one of its files.
    const segment = await segmentOf(path.join(dir, name))
    if (segment !== undefined) found.push({ ...segment.file, n: parts.n })
  }
  found.sort((a, b) => a.segment - b.segment || a.n - b.n)
  return found.map(({ n: _n, ...file }) => file)
}

/** The first bytes of a regular file (at most CONTINUATION_PREFIX_BYTES) and its size, or undefined. */
async function prefixOf(filePath: string): Promise<{ prefix: Buffer; size: number } | undefined> {
  let handle
  try {
    // O_NONBLOCK: a FIFO named like a transcript must not block the read until a writer appears.
    handle = await open(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    // Missing or unreadable: reading it reports why; it has no segments to find.
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
