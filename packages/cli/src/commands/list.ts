import path from 'node:path'
import { listSessions, type SessionSummary } from '@sessiontape/recorder'
import { catalogSessions, type CatalogSession } from '@sessiontape/sessions/catalog'
import { ExitCode, type CliIo } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { shortTime } from '../format-record.js'
import { requireDirectory } from '../targets.js'
import { recogniseFormat } from '@sessiontape/recorder/internal'

const TITLE_CHARS = 50
/** Levels below a listed directory that are walked (the catalog's deep walk, discover.ts). */
const WALK_LEVELS = 5
/** Files recognised at once: bounds open descriptors on a directory of thousands. */
const RECOGNISE_CONCURRENCY = 8

/** A file a listing found that is no session: its path and why it was left out. */
interface SkippedFile {
  readonly path: string
  readonly reason: string
}

/**
 * Leaves out the rows whose file is no session of a format we read: the readers take such a file for a
 * transcript of ours (0 records, or damaged), a guess. Only rows read as ours are checked, and not those
 * whose sidecar of ours was read (that transcript is ours whatever its bytes say).
 */
async function withoutUnknown<T extends SessionSummary>(
  rows: readonly T[],
): Promise<{ sessions: T[]; skipped: SkippedFile[] }> {
  const unknown = new Set<T>()
  const doubtful = rows.filter((row) => row.format === 'sessiontape' && row.source !== 'sidecar')
  for (let i = 0; i < doubtful.length; i += RECOGNISE_CONCURRENCY) {
    await Promise.all(
      doubtful.slice(i, i + RECOGNISE_CONCURRENCY).map(async (row) => {
        // A file that cannot be read stays listed with its note: it may be a session.
        const format = await recogniseFormat(row.filePath).catch(() => 'unreadable')
        if (format === undefined) unknown.add(row)
      }),
    )
  }
  return {
    sessions: rows.filter((row) => !unknown.has(row)),
    skipped: [...unknown].map((row) => ({ path: row.filePath, reason: 'unknown format' })),
  }
}

function skippedLine(skipped: readonly SkippedFile[]): string {
  return skipped.length === 0
    ? ''
    : `${skipped.length} file(s) skipped (not a session); --skipped lists them\n`
}

function printSkipped(io: CliIo, skipped: readonly SkippedFile[], json: boolean): void {
  if (json) writeJson(io, skipped)
  else for (const file of skipped) io.out(`${displayLine(file.path)}: ${file.reason}\n`)
}

export const listCommand: Command = {
  name: 'list',
  summary: "list sessions, newest first (every agent's, or a directory's)",
  usage: 'list [dir…] [--format <f>] [--json] [--skipped] [--rebuild-meta]',
  description: `
Lists sessions, newest first: last update, record count, session id, format and title. With no
<dir>, every agent's usual locations are listed: ~/.claude/projects ($CLAUDE_CONFIG_DIR),
~/.codex/sessions and archived_sessions ($CODEX_HOME), ~/.gemini/tmp ($GEMINI_CLI_HOME),
~/.qwen/projects and tmp ($QWEN_HOME), ~/.copilot/session-state ($COPILOT_HOME), ~/.cursor/projects
and chats, and ~/.sessiontape/sessions ($SESSIONTAPE_SESSIONS_DIR); missing ones are skipped.

Each <dir> (and each of those) is walked down ${WALK_LEVELS} levels, at most 20,000 directories and 200,000
files, never into dot-directories (.sessiontape/ sidecars,
.git) or node_modules. Only sessions are listed: a file whose content is no format sessiontape reads
(a log, a config, a usage file) is skipped and counted; --skipped lists them (path and reason).

In a <dir>: every session (every <sessionId>.jsonl). Figures of sessiontape's own
sessions come from the <sessionId>.meta.json sidecars; a missing, corrupt or stale sidecar is
rebuilt in memory from its transcript. A session whose files cannot be parsed is still listed,
with a note; nothing is ever hidden or deleted. Titles and names are shown with control characters
made visible.

Claude Code, Qwen Code and Gemini CLI session directories are listed too (~/.claude/projects/<project>,
~/.qwen/projects/<project>/chats, ~/.gemini/tmp/<hash>/chats), read from their transcripts: titles
(custom-title, ai-title, summary, Qwen's custom_title, Gemini's summary), record counts, and each
Claude session's subagent transcripts. A directory with no transcript of its own (~/.claude/projects,
~/.gemini/tmp) is listed one level down. Nothing is ever written for another agent's session.

Other agents' sessions are summarised once and kept in a catalog cache, in $SESSIONTAPE_CACHE_DIR,
else $XDG_CACHE_HOME/sessiontape, else ~/.cache/sessiontape (never in a listed directory): an
unchanged session is not read again, an appended one only from where it was last read, a changed one
whole. --json adds each session's agent, project (cwd), turn count, models, token usage and size.

Writes nothing but that cache, unless --rebuild-meta is given: then a rebuilt sidecar is saved,
only when its transcript is ours, never through a symlink, never over a file at that name that is
not a sidecar of ours (other tools keep *.meta.json files too), atomically (temp file + rename).
`,
  options: [
    { name: 'json', help: 'print the sessions as a JSON array' },
    { name: 'skipped', help: 'list the files skipped as no session (path, reason), instead of the sessions' },
    { name: 'rebuild-meta', help: 'save rebuilt sidecars (see above; one <dir> only)' },
    FORMAT_OPTION,
  ],
  exitCodes: `0 listed (even with notes), 2 a <dir> missing or not a directory.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(listCommand, args)
    const format = formatOption('list', values.format)
    const rebuild = values['rebuild-meta'] === true
    if (rebuild || format !== 'auto') {
      // The recorder's own listing: it saves sidecars, and reads every file as the format given.
      expectPositionals('list', positionals, 1)
      const dir = await requireDirectory('list', positionals[0])
      const listed = await listSessions(dir, { writeRebuiltMeta: rebuild, format })
      const { sessions, skipped } =
        format === 'auto' ? await withoutUnknown(listed) : { sessions: listed, skipped: [] }
      if (values.skipped === true) printSkipped(io, skipped, values.json === true)
      else if (values.json === true) writeJson(io, sessions)
      else io.out(formatTable(dir, sessions) + skippedLine(skipped))
      return ExitCode.OK
    }
    const dirs: string[] = []
    for (const given of positionals) dirs.push(await requireDirectory('list', given))
    const where = dirs.length === 0 ? "every agent's usual locations" : dirs.join(', ')
    const listed = await listWithCatalog(dirs, io.signal)
    if (listed.cacheProblem !== undefined)
      io.err(`${displayLine(`sessiontape list: ${listed.cacheProblem}`)}\n`)
    const { sessions, skipped } = await withoutUnknown(listed.sessions)
    if (values.skipped === true) printSkipped(io, skipped, values.json === true)
    else if (values.json === true) writeFlatJson(io, sessions)
    else io.out(formatTable(where, sessions) + skippedLine(skipped))
    return ExitCode.OK
  },
}

function formatTable(dir: string, sessions: readonly SessionSummary[]): string {
  // `dir` is where the sessions were looked for: one directory, several, or every agent's locations.
  if (sessions.length === 0) return `No sessions in ${displayLine(dir)}\n`
  // Another agent's sessions say whose they are; a directory of ours alone keeps the familiar four columns.
  const agents = sessions.some((s) => s.format !== 'sessiontape')
  const rows = sessions.map((s) => [
    shortTime(s.updatedAt),
    String(s.recordCount),
    displayLine(s.sessionId),
    ...(agents ? [s.format] : []),
    title(s),
  ])
  const header = ['UPDATED', 'RECORDS', 'SESSION', ...(agents ? ['FORMAT'] : []), 'TITLE']
  const widths = header.map((h, column) => Math.max(h.length, ...rows.map((row) => row[column]!.length)))
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd()
  let text = `${render(header)}\n`
  for (let i = 0; i < rows.length; i++) {
    text += `${render(rows[i]!)}\n`
    const { note, subagents, filePath } = sessions[i]!
    if (agents && path.dirname(filePath) !== dir) text += `  ↳ ${displayLine(filePath)}\n`
    if (subagents !== undefined) text += `  ↳ ${subagents.length} subagent transcript(s)\n`
    if (note !== undefined) text += `  ↳ ${displayLine(note)}\n`
  }
  return `${text}${sessions.length} session(s) in ${displayLine(dir)}\n`
}

function title(session: SessionSummary): string {
  const text = (session.title ?? '').slice(0, TITLE_CHARS * 4).replace(/\s+/g, ' ')
  return displayLine(text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS)}…` : text)
}

/** A row of `list`: the recorder's summary of a session, and what the catalog adds. */
type ListedSession = SessionSummary &
  Pick<CatalogSession, 'agent' | 'cwd' | 'turnCount' | 'models' | 'usage' | 'sizeBytes'>

/**
 * Lists through the catalog: other agents' sessions come from its cache (a Codex thread kept in several
 * rollout files is one session there, as in the recorder's listing); sessiontape's own keep the recorder's
 * listing of their directory (sidecars, their notes), so `list <dir>` of our sessions prints what it always
 * did. No `dirs`: every agent's usual locations, walked deep.
 */
async function listWithCatalog(
  dirs: readonly string[],
  signal: AbortSignal,
): Promise<{ sessions: ListedSession[]; cacheProblem?: string }> {
  let cacheProblem: string | undefined
  const sessions = await catalogSessions({
    ...(dirs.length === 0 ? {} : { dirs }),
    // This process does nothing else meanwhile: synchronous stats and cache reads spare a thread-pool round
    // trip per file (docs/search.md, "What a warm call costs").
    blocking: true,
    signal,
    onCacheError: (error) => {
      cacheProblem ??= `the catalog cache could not be saved (${(error as NodeJS.ErrnoException).code ?? String(error)}); listing is slower until it can`
    },
  })
  const ours = new Map<string, SessionSummary>()
  for (const dir of new Set(
    sessions.filter((s) => s.format === 'sessiontape').map((s) => path.dirname(s.file)),
  )) {
    for (const summary of await listSessions(dir))
      if (summary.format === 'sessiontape') ours.set(summary.filePath, summary)
  }
  const rows = sessions.map((session): ListedSession => {
    const own = ours.get(session.file)
    // Built by assignment, in the order the recorder's summaries have, rather than with conditional
    // spreads: one row per session, and the spreads were most of a warm listing's own work.
    const row: { -readonly [K in keyof ListedSession]?: ListedSession[K] } =
      own === undefined ? rowOf(session) : { ...own }
    row.agent = session.agent
    if (session.cwd !== undefined) row.cwd = session.cwd
    row.turnCount = session.turnCount
    row.models = session.models
    row.usage = session.usage
    row.sizeBytes = session.sizeBytes
    return row as ListedSession
  })
  // The recorder's order: newest first, then by id (each time parsed once, not once per comparison).
  const times = new Map(rows.map((row) => [row, Date.parse(row.updatedAt)]))
  rows.sort((a, b) => times.get(b)! - times.get(a)! || a.sessionId.localeCompare(b.sessionId))
  return { sessions: rows, ...(cacheProblem === undefined ? {} : { cacheProblem }) }
}

/** The recorder's summary of another agent's session, from its catalog row. */
function rowOf(session: CatalogSession): { -readonly [K in keyof ListedSession]?: ListedSession[K] } {
  const row: { -readonly [K in keyof ListedSession]?: ListedSession[K] } = {
    sessionId: session.sessionId,
    filePath: session.file,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    recordCount: session.recordCount,
  }
  if (session.title !== undefined) row.title = session.title
  row.lastUuid = session.lastUuid
  row.format = session.format
  if (session.subagents !== undefined) row.subagents = session.subagents
  if (session.segments !== undefined) row.segments = session.segments
  row.source = 'rebuilt'
  if (session.note !== undefined) row.note = session.note
  return row
}

const TERMINAL_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * `--json` of catalog rows. They are flat (strings, numbers, short arrays), so JSON.stringify is exact for
 * them and needs no stack-free walk; it was a fifth of a warm `list --json` of 3,000 sessions through the
 * general writer. The characters it leaves raw that a terminal would act on are escaped as that writer does
 * (they can only occur inside strings, so escaping the output is exact).
 */
function writeFlatJson(io: CliIo, value: unknown): void {
  const text = JSON.stringify(value, null, 2).replace(
    TERMINAL_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  io.out(`${text}\n`)
}
