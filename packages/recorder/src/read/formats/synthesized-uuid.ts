import path from 'node:path'

/**
 * Codex CLI rollout file names: `rollout-<local time>-<thread uuid>[_<segment id>].jsonl[.zst]`. The part
 * after the time is the rollout's id (a thread's first file is named by the thread id alone; each later
 * segment adds `_<segment id>`); it never changes once the file exists, compressed or not.
 */
const ROLLOUT_NAME =
  /^rollout-.*?-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:_([A-Za-z0-9-]+))?\.jsonl(?:\.zst)?$/i

/** What a Codex rollout's file name says: its thread, its segment (none for a thread's first file). */
export interface RolloutName {
  readonly threadId: string
  readonly segmentId: string | undefined
  /** `<thread>` or `<thread>_<segment>`: the id other segments name in `history_base`. */
  readonly rolloutId: string
}

export function rolloutNameOf(filePath: string): RolloutName | undefined {
  const match = ROLLOUT_NAME.exec(path.basename(filePath))
  if (match === null) return undefined
  const threadId = match[1]!
  const segmentId = match[2]
  return { threadId, segmentId, rolloutId: segmentId === undefined ? threadId : `${threadId}_${segmentId}` }
}

/**
 * The stable part of a synthesized uuid for a file whose lines carry none (Codex CLI, Cursor CLI): the
 * Codex rollout id when the name has one, else the file's name without `.jsonl` / `.jsonl.zst`. Taken
 * from the path alone, so it is known before the first line and the same on every read.
 */
export function fileKeyOf(filePath: string): string {
  const rollout = rolloutNameOf(filePath)
  if (rollout !== undefined) return rollout.rolloutId
  return path.basename(filePath).replace(/\.jsonl(?:\.zst)?$/i, '')
}

/**
 * A synthesized uuid: `<file key>:<line>` (1-based line of the file the record is on). Stable because these
 * agents only ever append to a file (a line keeps its number), unique within a session because a session's
 * files have different keys, and readable: it says where the record is.
 */
export function synthesizedUuid(fileKey: string, line: number): string {
  return `${fileKey}:${line}`
}
