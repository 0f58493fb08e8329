import path from 'node:path'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { groupCodexThreads } from '@sessiontape/recorder/internal'
import { agentOf } from '../formats/index.js'
import type { Agent, Usage } from '../model.js'
import { addUsage, ZERO_USAGE } from '../usage/usage.js'
import { digestOf, type CachedEntry } from './cache-store.js'
import { transcriptBaseName } from './discover.js'

/** One session as the catalog lists it. */
export interface CatalogSession {
  readonly file: string
  readonly format: TranscriptFormat
  readonly agent: Agent
  /** The id the records carry, else the file name without its extension. */
  readonly sessionId: string
  /** The working directory the agent ran in (the project), when the format records it. */
  readonly cwd?: string
  readonly title?: string
  /** ISO 8601: the earliest and latest times in the file (its mtime when it has none). */
  readonly createdAt: string
  readonly updatedAt: string
  readonly recordCount: number
  /** Prompts a person typed (user messages outside subagents). */
  readonly turnCount: number
  /** Models the session used, in order of first use. */
  readonly models: readonly string[]
  /** Token usage, summed over the session's model requests (see the model's usage rules). */
  readonly usage: Usage
  readonly sizeBytes: number
  readonly lastUuid: string | null
  /** Subagent transcripts of the session (Claude's `<session>/subagents/*.jsonl`). */
  readonly subagents?: readonly string[]
  /**
   * A Codex thread kept in several rollout files: every file of the thread found, oldest first (`file` is
   * its newest segment; the counts, usage and size are the thread's). Absent for a one-file session.
   */
  readonly segments?: readonly string[]
  /** Why the file could not be read, or what was wrong with it; absent when all was well. */
  readonly note?: string
}

/** The catalog's view of an entry. */
export function sessionOf(entry: CachedEntry, subagents?: readonly string[]): CatalogSession {
  const digest = digestOf(entry)
  const isoOf = (ms: number | null): string => new Date(ms ?? entry.mtimeMs).toISOString()
  const problems = digest.problemCount > 0 ? `${digest.problemCount} damaged line(s)` : undefined
  const note =
    problems === undefined
      ? (entry.note ?? '')
      : entry.note === undefined
        ? problems
        : `${entry.note}; ${problems}`
  // Built by assignment in the listed order rather than with `...(x === undefined ? {} : { x })`: a listing
  // makes one per session, and the spreads were most of its cost.
  const session: { -readonly [K in keyof CatalogSession]?: CatalogSession[K] } = {
    file: entry.file,
    format: entry.format,
    agent: agentOf(entry.format),
    sessionId: digest.sessionId ?? transcriptBaseName(path.basename(entry.file)),
  }
  if (digest.cwd !== undefined) session.cwd = digest.cwd
  if (digest.title !== undefined) session.title = digest.title
  session.createdAt = isoOf(digest.first)
  session.updatedAt = isoOf(digest.last)
  session.recordCount = digest.recordCount
  session.turnCount = digest.turnCount
  session.models = digest.models
  session.usage = digest.usage
  session.sizeBytes = entry.size
  session.lastUuid = digest.lastUuid
  if (subagents !== undefined && subagents.length > 0) session.subagents = subagents
  if (note !== '') session.note = note
  return session as CatalogSession
}

/**
 * The sessions among refreshed entries, newest first: subagent transcripts folded into their session, and
 * a Codex thread kept in several rollout files (its segments, a compressed copy of a rollout) listed once,
 * as the recorder's `listSessions` lists it.
 */
export async function sessionsOf(entries: readonly CachedEntry[]): Promise<CatalogSession[]> {
  const subagents = new Map<string, string[]>()
  for (const entry of entries) {
    if (entry.parent === undefined) continue
    const list = subagents.get(entry.parent)
    if (list === undefined) subagents.set(entry.parent, [entry.file])
    else list.push(entry.file)
  }
  const sessions = entries
    .filter((entry) => entry.parent === undefined)
    .map((entry) => sessionOf(entry, subagents.get(entry.file)))
  return (await foldCodexThreads(sessions)).sort((a, b) =>
    a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.sessionId < b.sessionId ? -1 : 1,
  )
}

/**
 * One row per Codex thread: the recorder's grouping (`groupCodexThreads`: the head is the newest segment no
 * other continues; a rollout kept plain and compressed counts once, the plain copy) over the catalog's
 * rows, with the thread's counts, usage and size summed over its files. Only a thread of several files
 * reads anything (each file's first line, for the segment it continues).
 */
async function foldCodexThreads(sessions: CatalogSession[]): Promise<CatalogSession[]> {
  const codex = sessions.filter((session) => session.format === 'codex-cli')
  if (codex.length < 2) return sessions
  const byFile = new Map(codex.map((session) => [session.file, session]))
  const { heads, segmentsOf } = await groupCodexThreads(
    codex.map((session) => ({ dir: path.dirname(session.file), name: path.basename(session.file) })),
  )
  const kept = new Map<string, CatalogSession>()
  for (const head of heads) {
    const file = path.join(head.dir, head.name)
    const segments = segmentsOf.get(file)
    const session = byFile.get(file)!
    kept.set(
      file,
      segments === undefined
        ? session
        : threadOf(
            session,
            segments.map((at) => byFile.get(at)!),
          ),
    )
  }
  return sessions.flatMap((session) =>
    session.format !== 'codex-cli' ? [session] : kept.has(session.file) ? [kept.get(session.file)!] : [],
  )
}

function threadOf(head: CatalogSession, files: readonly CatalogSession[]): CatalogSession {
  const usage = files.reduce((sum, file) => addUsage(sum, file.usage), ZERO_USAGE)
  const notes = files.flatMap((file) =>
    file.note === undefined ? [] : [file === head ? file.note : `${path.basename(file.file)}: ${file.note}`],
  )
  const title = head.title ?? files.find((file) => file.title !== undefined)?.title
  const cwd = head.cwd ?? files.find((file) => file.cwd !== undefined)?.cwd
  return {
    ...head,
    ...(title === undefined ? {} : { title }),
    ...(cwd === undefined ? {} : { cwd }),
    createdAt: files.reduce((min, file) => (file.createdAt < min ? file.createdAt : min), head.createdAt),
    updatedAt: files.reduce((max, file) => (file.updatedAt > max ? file.updatedAt : max), head.updatedAt),
    recordCount: files.reduce((sum, file) => sum + file.recordCount, 0),
    turnCount: files.reduce((sum, file) => sum + file.turnCount, 0),
    models: [...new Set(files.flatMap((file) => file.models))],
    usage,
    sizeBytes: files.reduce((sum, file) => sum + file.sizeBytes, 0),
    segments: files.map((file) => file.file),
    ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
  }
}
