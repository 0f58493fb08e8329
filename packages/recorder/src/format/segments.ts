/*
 * SEGMENTS: ONE SESSION, SEVERAL FILES
 *
 * A session is written to its path, `<dir>/<sessionId>.jsonl`, for as long as that file stays as the writer
 * left it. When the writer finds it changed by someone else (or gone), it never writes that file again
 * (the file is sealed) and goes on in a segment:
 *
 *   <dir>/<sessionId>~<n>.jsonl      n = 2, 3, … in the order they were started
 *
 * `~` is outside the session-id alphabet (SESSION_ID_PATTERN), so no session's own path can take a
 * segment's name, and a shipper's `<dir>/*.jsonl` glob still finds every segment.
 *
 * A segment is recognised by its FIRST LINE, never by its name alone: a record of ours (the usual envelope)
 * of type `continuation` (CONTINUATION_RECORD_TYPE), `parentUuid: null`, with the data
 *
 *   { "continues": "<sessionId>.jsonl",   the file name (same directory) of the file this one follows
 *     "segment": n,                       this file's place in the session (the path itself is 1)
 *     "reason": "<why>",                  CONTINUATION_REASONS: what the writer found
 *     "carried": k }                      the k records right after this line are written again from
 *                                         memory or copied from the sealed file: an earlier file of the
 *                                         session may hold them too
 *
 * The same record may also open the session's own path (n = 1, `continues` its own name) when the writer
 * finds that file emptied under it (logrotate's `copytruncate`): it is written again from its start.
 *
 * READING. A session is all its files, in segment order: the path (if it still exists), then each segment
 * whose name is `<sessionId>~<n>.jsonl` and whose first line is a continuation record of that session.
 * Every reader of this package reads them as one (`readSession(filePath)` for the path or any segment,
 * `streamRecords`, `scanTranscript`, `listSessions` with one row per session). A record whose uuid an
 * earlier file of the session already holds, among the `carried` records of a continuation, is read once:
 * where it first appears. Anything else that repeats a uuid is a `duplicate-uuid` problem, as in one file.
 * Memory stays bounded: only the carried records' uuids are held, at most MAX_CARRIED_UUIDS per segment.
 *
 * The continuation record is metadata beside the conversation, as `recovered` and `title` are: its
 * `parentUuid` is the record the session's chain had reached when the file was started (null for none),
 * which may stand in an earlier file or among the carried records after it; it is never the leaf an active
 * branch ends at and never a parent (a resumed writer continues from the record it hangs from).
 *
 * WRITER PROFILES. Only the default profile (`sessiontape`) writes segments. The `claude-code` and `codex`
 * profiles write files whose first line those agents' own tools expect; a continuation record there would
 * break them, so under those profiles a file found changed ends the recording with a typed error instead.
 *
 * DELETING A SESSION means deleting all its files: `<dir>/<sessionId>.jsonl`, `<dir>/<sessionId>~*.jsonl`
 * and `<dir>/.sessiontape/<sessionId>.*`. A writer never re-creates a file the user deleted for a session
 * it is not writing.
 */
import path from 'node:path'

import { ownershipOfPrefix } from './file-ownership.js'
import type { SessionRecord } from './record-format.js'

/** Record type of the first line of a segment: which file it continues and why. */
export const CONTINUATION_RECORD_TYPE = 'continuation'

/** What a writer found that made it start a file (the `reason` of a continuation record). */
export const CONTINUATION_REASONS = [
  /** The file at the path was changed by someone else (appended, cut, rewritten): it is sealed. */
  'changed',
  /** The file at the path was deleted or renamed away (a rotation): the session goes on in a new file. */
  'moved',
  /** Another file was put at the path (an editor's save, an older copy, a rotation's new file not adopted). */
  'replaced',
  /** The file at the path was emptied under the writer (`copytruncate`): written again from its start. */
  'emptied',
] as const

export type ContinuationReason = (typeof CONTINUATION_REASONS)[number]

/** What a continuation record says. */
export interface Continuation {
  /** File name (in the same directory) of the file this one follows. */
  readonly continues: string
  /** This file's place in the session; the session's path is 1. */
  readonly segment: number
  readonly reason: ContinuationReason
  /** How many records right after the continuation may repeat records of an earlier file. */
  readonly carried: number
}

/**
 * The most carried uuids a reader holds for one segment: a writer carries at most its queue's bound
 * (`maxQueueChars`) plus one sealed file's copy, far fewer records than this; a file claiming more is read
 * with the first this many de-duplicated (the rest, if repeated, are `duplicate-uuid` problems).
 */
export const MAX_CARRIED_UUIDS = 1_000_000

/** The highest segment number a reader follows (a bound on a directory of hostile names). */
export const MAX_SEGMENT_NUMBER = 100_000

/** The separator between a session id and a segment number: not in the session-id alphabet. */
const SEGMENT_SEPARATOR = '~'
const SEGMENT_NAME = /^(.+)~([1-9]\d{0,5})\.jsonl$/

/** File name of segment `n` (2 or more) of a session. */
export function segmentFileName(sessionId: string, n: number): string {
  if (!(Number.isSafeInteger(n) && n >= 2 && n <= MAX_SEGMENT_NUMBER)) {
    throw new RangeError(`Expected a segment number from 2 to ${MAX_SEGMENT_NUMBER}, got ${n}`)
  }
  return `${sessionId}${SEGMENT_SEPARATOR}${n}.jsonl`
}

/** The session id and number a file name proposes for a segment (the first line decides), or undefined. */
export function segmentNameParts(fileName: string): { sessionId: string; n: number } | undefined {
  const match = SEGMENT_NAME.exec(fileName)
  if (match === null) return undefined
  const n = Number(match[2])
  return n >= 2 && n <= MAX_SEGMENT_NUMBER ? { sessionId: match[1]!, n } : undefined
}

/** The continuation a record states, or undefined when it is not a well-formed continuation record. */
export function continuationOf(record: SessionRecord): Continuation | undefined {
  if (record.type !== CONTINUATION_RECORD_TYPE) return undefined
  const { continues, segment, reason, carried } = record
  if (typeof continues !== 'string' || continues.length === 0 || path.basename(continues) !== continues)
    return undefined
  if (!(Number.isSafeInteger(segment) && (segment as number) >= 1)) return undefined
  if (!(CONTINUATION_REASONS as readonly unknown[]).includes(reason)) return undefined
  if (!(Number.isSafeInteger(carried) && (carried as number) >= 0)) return undefined
  return {
    continues,
    segment: segment as number,
    reason: reason as ContinuationReason,
    carried: carried as number,
  }
}

/** The data fields of a continuation record, in the order they are written. */
export function continuationData(continuation: Continuation): Record<string, unknown> {
  const { continues, segment, reason, carried } = continuation
  return { continues, segment, reason, carried }
}

/**
 * Bytes read from the start of a file to find its continuation record: a continuation is a few hundred
 * bytes (a session id is at most 128 characters); the first line of a session's path can be any size.
 */
export const CONTINUATION_PREFIX_BYTES = 64 * 1024

/**
 * The continuation that opens a file of session `sessionId` whose first bytes are `prefix` and whose size
 * is `size`, or undefined when its first line is not a whole continuation record of that session. Pure:
 * the readers (async) and the writer's resume (sync) bring the bytes.
 */
export function continuationOfPrefix(
  prefix: Uint8Array,
  size: number,
  sessionId: string,
): Continuation | undefined {
  if (ownershipOfPrefix(prefix, size).verdict !== 'ours') return undefined
  const bytes = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  const newline = bytes.indexOf(0x0a)
  if (newline === -1) return undefined
  let record: unknown
  try {
    record = JSON.parse(bytes.toString('utf8', 0, newline))
  } catch {
    // A damaged first line opens no segment.
    return undefined
  }
  if (record === null || typeof record !== 'object') return undefined
  const first = record as SessionRecord
  return first.sessionId === sessionId ? continuationOf(first) : undefined
}
