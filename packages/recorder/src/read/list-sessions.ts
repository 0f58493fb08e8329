import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { isValidSessionId, metaPathOf, type SessionMeta } from '../record-format.js'
import { describeValue } from './describe-value.js'
import { saveRebuiltMeta } from './save-rebuilt-meta.js'
import { findMeta } from './find-meta.js'
import { rebuildMeta } from './session-meta.js'

/** One session as {@link listSessions} reports it. */
export interface SessionSummary {
  readonly sessionId: string
  readonly filePath: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly recordCount: number
  readonly title?: string
  readonly lastUuid: string | null
  /** `sidecar`: read from `<sessionId>.meta.json`. `rebuilt`: recomputed from the transcript. `stat`: neither could be read. */
  readonly source: 'sidecar' | 'rebuilt' | 'stat'
  /** Why the sidecar was not used, or why the transcript could not be read; absent when all was well. */
  readonly note?: string
}

export interface ListSessionsOptions {
  /**
   * Save a rebuilt sidecar so the next listing is cheap again — only for a transcript that is ours, never
   * through a symlink, never over a file at the sidecar's name that is not a sidecar of ours (another
   * tool's `*.meta.json`), atomically. Not saving, and why, is noted in `note`, never thrown. Listing is
   * read-only unless this is set.
   * @default false
   */
  readonly writeRebuiltMeta?: boolean
  /**
   * A sidecar older than its transcript by more than this is treated as stale and rebuilt (a writer that
   * crashed before its debounced sidecar write). Live recorders refresh theirs far more often.
   * @default 10000
   */
  readonly staleMetaMs?: number
}

const TRANSCRIPT_SUFFIX = '.jsonl'
/** Sessions examined at once: bounds open file descriptors on a directory with thousands of sessions. */
const CONCURRENCY = 8
const DEFAULT_STALE_META_MS = 10_000

/**
 * Every session in `dir` (every `*.jsonl` file), newest first. Uses the metadata sidecars, so it never
 * reads whole transcripts unless a sidecar is missing, corrupt or stale; then it rebuilds it from the
 * transcript. A session is never hidden because something about it could not be parsed.
 */
export async function listSessions(
  dir: string,
  options: ListSessionsOptions = {},
): Promise<SessionSummary[]> {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new TypeError(
      `Expected \`dir\` to be a non-empty string, got \`${describeValue(dir)}\` (${typeof dir})`,
    )
  }
  const writeRebuilt = options?.writeRebuiltMeta ?? false
  const staleMetaMs = options?.staleMetaMs ?? DEFAULT_STALE_META_MS
  if (!(typeof staleMetaMs === 'number' && staleMetaMs >= 0)) {
    throw new TypeError(
      `Expected \`staleMetaMs\` to be a non-negative number, got \`${describeValue(staleMetaMs)}\` (${typeof staleMetaMs})`,
    )
  }
  const entries = await readdir(dir, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.name.endsWith(TRANSCRIPT_SUFFIX) && (entry.isFile() || entry.isSymbolicLink()))
    .map((entry) => entry.name)
  const sessions: SessionSummary[] = []
  for (let i = 0; i < names.length; i += CONCURRENCY) {
    const batch = names.slice(i, i + CONCURRENCY)
    sessions.push(
      ...(await Promise.all(batch.map((name) => summarize(dir, name, writeRebuilt, staleMetaMs)))),
    )
  }
  return sessions.sort(
    (a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || a.sessionId.localeCompare(b.sessionId),
  )
}

async function summarize(
  dir: string,
  name: string,
  writeRebuilt: boolean,
  staleMetaMs: number,
): Promise<SessionSummary> {
  const sessionId = name.slice(0, -TRANSCRIPT_SUFFIX.length)
  const filePath = path.join(dir, name)
  let transcriptStat
  try {
    transcriptStat = await stat(filePath)
  } catch (error) {
    return unreadable(sessionId, filePath, new Date(0).toISOString(), error)
  }
  const mtime = transcriptStat.mtime.toISOString()
  // The sidecar directory's sidecar, or (read-only) one an older version left next to the transcript.
  const { meta, metaPath } = await findMeta(dir, sessionId)
  let note: string
  if (typeof meta !== 'string') {
    const metaStat = await stat(metaPath).catch(() => undefined)
    if (metaStat === undefined || transcriptStat.mtimeMs - metaStat.mtimeMs <= staleMetaMs) {
      return fromMeta(meta, filePath, 'sidecar')
    }
    note = 'sidecar is older than the transcript (stale)'
  } else note = meta
  let rebuilt: SessionMeta
  try {
    rebuilt = await rebuildMeta(filePath, sessionId, mtime)
  } catch (error) {
    return unreadable(sessionId, filePath, mtime, error, `${note}; `)
  }
  if (writeRebuilt && isValidSessionId(sessionId)) {
    try {
      const outcome = await saveRebuiltMeta(filePath, metaPathOf(dir, sessionId), rebuilt)
      note += outcome.saved
        ? '; rebuilt from the transcript and saved'
        : `; rebuilt from the transcript, not saved: ${outcome.reason}`
    } catch (error) {
      note += `; rebuilt from the transcript, could not save it (${(error as NodeJS.ErrnoException).code ?? String(error)})`
    }
  } else note += '; rebuilt from the transcript'
  return { ...fromMeta(rebuilt, filePath, 'rebuilt'), note }
}

function fromMeta(meta: SessionMeta, filePath: string, source: SessionSummary['source']): SessionSummary {
  return {
    sessionId: meta.sessionId,
    filePath,
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    recordCount: meta.recordCount,
    ...(meta.title === undefined ? {} : { title: meta.title }),
    lastUuid: meta.lastUuid,
    source,
  }
}

function unreadable(
  sessionId: string,
  filePath: string,
  time: string,
  error: unknown,
  prefix = '',
): SessionSummary {
  const reason = (error as NodeJS.ErrnoException).code ?? String(error)
  return {
    sessionId,
    filePath,
    createdAt: time,
    updatedAt: time,
    recordCount: 0,
    lastUuid: null,
    source: 'stat',
    note: `${prefix}transcript unreadable (${reason}); listed so it is not lost`,
  }
}
