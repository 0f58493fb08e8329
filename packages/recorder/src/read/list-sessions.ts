import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { isValidSessionId, metaPathOf, type SessionMeta } from '../format/record-format.js'
import { segmentNameParts } from '../format/segments.js'
import { segmentedSessions } from './session-files.js'
import { describeValue } from '../util/describe-value.js'
import { groupCodexThreads } from './formats/codex-threads.js'
import { dayDirsOf } from './formats/codex-segments.js'
import { detectFormat } from './formats/detect-format.js'
import { subagentFiles, summarizeForeign } from './formats/foreign-summary.js'
import { checkFormat, type FormatOption, type TranscriptFormat } from './formats/transcript-format.js'
import { saveRebuiltMeta } from './save-rebuilt-meta.js'
import { findMeta } from '../format/meta-file.js'
import { rebuildMeta } from './session-meta.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

/** One session as {@link listSessions} reports it. */
export interface SessionSummary {
  readonly sessionId: string
  readonly filePath: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly recordCount: number
  readonly title?: string
  readonly lastUuid: string | null
  /**
   * How the transcript is written: ours, or another agent's (Claude Code, Qwen Code, Gemini CLI), whose
   * sessions are listed from their transcripts (they have no sidecar; nothing is ever written for them).
   */
  readonly format: TranscriptFormat
  /** Sub-agent transcripts of another agent's session (Claude's `<session>/subagents/agent-*.jsonl`). */
  readonly subagents?: readonly string[]
  /**
   * A session kept in several files, every file oldest first; absent for one file. Ours: the session's path
   * (`filePath`, or its first segment when the path is gone) and its segments `<sessionId>~<n>.jsonl`
   * (format/segments.ts); reading any of them reads them all. A Codex thread kept in several rollout files:
   * `filePath` is the newest, and reading it reads the thread from its first segment.
   */
  readonly segments?: readonly string[]
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
  /**
   * The transcripts' format; `'auto'` recognises each file's from its first lines (only when it has no
   * sidecar of ours). Other agents' directories are listed too: Claude Code's `~/.claude/projects/<project>`,
   * Qwen Code's `…/chats`, Gemini CLI's `~/.gemini/tmp/<hash>/chats` (with its older `session-*.json`).
   * A directory with no transcript of its own is listed one level down (`~/.claude/projects`,
   * `~/.gemini/tmp`: every project, and each project's `chats`).
   * @default 'auto'
   */
  readonly format?: FormatOption
}

const TRANSCRIPT_SUFFIX = '.jsonl'
/** Codex CLI compresses closed rollouts: `rollout-….jsonl.zst`, read transparently. */
const COMPRESSED_TRANSCRIPT_SUFFIX = '.jsonl.zst'
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
  rejectUnknownOptions(options, ['writeRebuiltMeta', 'staleMetaMs', 'format'], 'listSessions()')
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
  const format = checkFormat(options?.format)
  let files = await transcriptsIn(dir)
  if (files.length === 0) files = await transcriptsBelow(dir)
  const { heads, segmentsOf } =
    format === 'auto' || format === 'codex-cli'
      ? await groupCodexThreads(files)
      : { heads: files, segmentsOf: new Map<string, string[]>() }
  const ours = format === 'auto' || format === 'sessiontape' ? await groupSegments(heads) : undefined
  files = ours?.heads ?? heads
  const sessions: SessionSummary[] = []
  for (let i = 0; i < files.length; i += CONCURRENCY) {
    const batch = files.slice(i, i + CONCURRENCY)
    sessions.push(
      ...(await Promise.all(
        batch.map(async ({ dir: at, name }) => {
          const session = ours?.sessions.get(path.join(at, name))
          const summary = await summarize(at, name, writeRebuilt, staleMetaMs, format, session)
          const segments =
            session !== undefined && session.files.length > 1
              ? session.files
              : segmentsOf.get(path.join(at, name))
          return segments === undefined ? summary : { ...summary, segments }
        }),
      )),
    )
  }
  return sessions.sort(
    (a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || a.sessionId.localeCompare(b.sessionId),
  )
}

/** Gemini CLI's older format: one JSON document per session, `session-<time>-<id>.json`. */
const GEMINI_DOCUMENT = /^session-.*\.json$/
/** Directories listed below a directory with no transcript of its own; bounds a walk of a huge tree. */
const MAX_SUBDIRECTORIES = 10_000

interface Candidate {
  readonly dir: string
  readonly name: string
}

async function transcriptsIn(dir: string): Promise<Candidate[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  return entries
    .filter(
      (entry) =>
        (entry.name.endsWith(TRANSCRIPT_SUFFIX) ||
          entry.name.endsWith(COMPRESSED_TRANSCRIPT_SUFFIX) ||
          GEMINI_DOCUMENT.test(entry.name)) &&
        (entry.isFile() || entry.isSymbolicLink()),
    )
    .map((entry) => ({ dir, name: entry.name }))
}

/**
 * Transcripts one level down (a projects directory), in each project's `chats` (Qwen, Gemini) and in each
 * session folder of its `agent-transcripts` (Cursor); in Codex's `~/.codex/sessions`, every `YYYY/MM/DD`
 * day directory.
 */
async function transcriptsBelow(dir: string): Promise<Candidate[]> {
  const days = await dayDirsOf(dir)
  if (days.length > 0) {
    const found: Candidate[] = []
    for (const day of days) found.push(...(await transcriptsIn(day).catch(() => [])))
    return found
  }
  const entries = await readdir(dir, { withFileTypes: true })
  const found: Candidate[] = []
  let seen = 0
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || ++seen > MAX_SUBDIRECTORIES) continue
    const sub = path.join(dir, entry.name)
    for (const at of [sub, path.join(sub, 'chats')]) {
      found.push(...(await transcriptsIn(at).catch(() => [])))
    }
    // Cursor CLI: `~/.cursor/projects/<project>/agent-transcripts/<session>/<session>.jsonl`.
    const transcripts = path.join(sub, 'agent-transcripts')
    for (const session of await readdir(transcripts, { withFileTypes: true }).catch(() => [])) {
      if (!session.isDirectory() || ++seen > MAX_SUBDIRECTORIES) continue
      found.push(...(await transcriptsIn(path.join(transcripts, session.name)).catch(() => [])))
    }
  }
  return found
}

async function summarize(
  dir: string,
  name: string,
  writeRebuilt: boolean,
  staleMetaMs: number,
  formatOption: FormatOption,
  session?: SegmentedSession,
): Promise<SessionSummary> {
  const sessionId = session?.sessionId ?? name.replace(/\.jsonl(?:\.zst)?$|\.json$/, '')
  const filePath = path.join(dir, name)
  let transcriptStat
  try {
    transcriptStat = await stat(filePath)
    // A session in segments changed when its newest file did: that is what its sidecar is compared with.
    for (const file of session?.files.slice(1) ?? []) {
      const newer = await stat(file).catch(() => undefined)
      if (newer !== undefined && newer.mtimeMs > transcriptStat.mtimeMs) transcriptStat = newer
    }
  } catch (error) {
    return unreadable(sessionId, filePath, new Date(0).toISOString(), error)
  }
  const mtime = transcriptStat.mtime.toISOString()
  // The sidecar directory's sidecar, or (read-only) one an older version left next to the transcript.
  const { meta, metaPath } = await findMeta(dir, sessionId)
  if (typeof meta === 'string' || formatOption !== 'auto') {
    // No sidecar of ours: the transcript says whose it is. Another agent's session is read, never written.
    let format: TranscriptFormat
    try {
      format = formatOption === 'auto' ? await detectFormat(filePath) : formatOption
    } catch (error) {
      return unreadable(sessionId, filePath, mtime, error, `${meta as string}; `)
    }
    if (format !== 'sessiontape') {
      try {
        const summary = await summarizeForeign(filePath, format, sessionId, mtime)
        const subagents = await subagentFiles(dir, sessionId, format)
        return {
          ...summary,
          filePath,
          format,
          ...(subagents.length === 0 ? {} : { subagents }),
          source: 'rebuilt',
        }
      } catch (error) {
        return unreadable(sessionId, filePath, mtime, error, `read as ${format}: `)
      }
    }
  }
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
    rebuilt = await rebuildMeta(filePath, sessionId, mtime, session === undefined)
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
    format: 'sessiontape',
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
    format: 'sessiontape',
    source: 'stat',
    note: `${prefix}transcript unreadable (${reason}); listed so it is not lost`,
  }
}

/** A session of ours kept in several files: its id and every file, oldest first. */
interface SegmentedSession {
  readonly sessionId: string
  readonly files: readonly string[]
}

/**
 * Folds the later files of our sessions kept in segments into one candidate per session (its first file:
 * the session's path, or its first segment when the path is gone or not this session's), by the one rule
 * of {@link segmentedSessions}.
 */
async function groupSegments(
  candidates: readonly Candidate[],
): Promise<{ heads: Candidate[]; sessions: Map<string, SegmentedSession> }> {
  const namesByDir = new Map<string, string[]>()
  for (const { dir, name } of candidates) {
    if (segmentNameParts(name) === undefined) continue
    const names = namesByDir.get(dir) ?? []
    names.push(name)
    namesByDir.set(dir, names)
  }
  const later = new Set<string>()
  const sessions = new Map<string, SegmentedSession>()
  for (const [dir, names] of namesByDir) {
    const found = await segmentedSessions(dir, names)
    for (const name of found.later) later.add(path.join(dir, name))
    for (const [first, files] of found.byFirst) {
      const sessionId = segmentNameParts(path.basename(files.at(-1)!.path))!.sessionId
      const all = files.map((file) => file.path)
      sessions.set(path.join(dir, first), { sessionId, files: all })
    }
  }
  const heads = candidates.filter(({ dir, name }) => !later.has(path.join(dir, name)))
  return { heads, sessions }
}
