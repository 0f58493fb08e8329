import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { streamRecords } from '../stream-records.js'
import { TitleKeeper } from './session-title.js'
import type { TranscriptFormat } from './transcript-format.js'

/** Lines longer than this are skipped while another agent's session is summarised (listing stays small). */
const SUMMARY_MAX_LINE_BYTES = 16 * 1024 * 1024
/** Sub-agent transcripts named per session: enough for any real session, bounded for a hostile directory. */
const MAX_SUBAGENTS = 1000

/** What listing needs of another agent's session, read from its transcript (there is no sidecar). */
export interface ForeignSummary {
  readonly sessionId: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly recordCount: number
  readonly title?: string
  readonly lastUuid: string | null
}

/**
 * One streaming pass over another agent's session (constant memory; a Gemini replay is bounded): record
 * count, first and last valid record times (`fallbackTime`, the file's mtime, when none parses), the best
 * title (see TitleKeeper), and the session id the records carry (else `fallbackId`, from the file name).
 */
export async function summarizeForeign(
  filePath: string,
  format: TranscriptFormat,
  fallbackId: string,
  fallbackTime: string,
): Promise<ForeignSummary> {
  const titles = new TitleKeeper()
  let recordCount = 0
  let first = Infinity
  let last = -Infinity
  let lastUuid: string | null = null
  let sessionId: string | undefined
  const time = (value: unknown): void => {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
    if (!Number.isFinite(at)) return
    if (at < first) first = at
    if (at > last) last = at
  }
  for await (const record of streamRecords(filePath, {
    format,
    maxLineBytes: SUMMARY_MAX_LINE_BYTES,
    onMetadata: ({ value }) => {
      titles.see(value)
      if (sessionId === undefined && typeof value.sessionId === 'string' && value.sessionId !== '')
        sessionId = value.sessionId
      time(value.timestamp)
      time(value.lastUpdated)
      const set = value.$set as Record<string, unknown> | null | undefined
      if (typeof set === 'object' && set !== null) time(set.lastUpdated)
    },
  })) {
    recordCount++
    titles.see(record)
    time(record.timestamp)
    lastUuid = record.uuid
    if (sessionId === undefined && record.sessionId !== '') sessionId = record.sessionId
  }
  const title = titles.title
  return {
    sessionId: sessionId ?? fallbackId,
    createdAt: Number.isFinite(first) ? new Date(first).toISOString() : fallbackTime,
    updatedAt: Number.isFinite(last) ? new Date(last).toISOString() : fallbackTime,
    recordCount,
    ...(title === undefined ? {} : { title }),
    lastUuid,
  }
}

/**
 * Sub-agent transcripts of a session, by the agents' layouts: Claude Code keeps them in
 * `<dir>/<session>/subagents/agent-*.jsonl`, Gemini CLI in `<dir>/<session id>/*.jsonl`, Cursor CLI in a
 * `subagents/` folder beside the session's transcript (one session per folder). Paths, sorted.
 */
export async function subagentFiles(
  dir: string,
  sessionKey: string,
  format?: TranscriptFormat,
): Promise<string[]> {
  const found: string[] = []
  const places = [path.join(dir, sessionKey, 'subagents'), path.join(dir, sessionKey)]
  if (format === 'cursor-cli') places.push(path.join(dir, 'subagents'))
  for (const sub of places) {
    const entries = await readdir(sub, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (found.length >= MAX_SUBAGENTS) break
      if (entry.name.endsWith('.jsonl') && entry.isFile()) found.push(path.join(sub, entry.name))
    }
  }
  return found.sort()
}
