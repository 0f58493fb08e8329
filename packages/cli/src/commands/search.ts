import {
  SEARCH_ROLES,
  searchSessions,
  type SearchHit,
  type SearchResult,
  type SearchRole,
} from '@sessiontape/sessions/search'
import { CliError, ExitCode } from '../cli-io.js'
import { parseCommandArgs, stringOption, writeJson, type Command } from '../command.js'
import { displayLine } from '../display-text.js'
import { shortTime } from '../format-record.js'
import { requireDirectory } from '../targets.js'
import { pageText } from '../pager.js'

const AGENTS = [
  'sessiontape',
  'claude-code',
  'qwen-code',
  'gemini-cli',
  'codex-cli',
  'copilot-cli',
  'cursor-cli',
]
/** `--since 7d`: a duration back from now (minutes, hours, days, weeks). */
const RELATIVE = /^(\d+)(m|h|d|w)$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const
/** A date without a time: `--until 2026-03-01` means the whole of that day (UTC). */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

export const searchCommand: Command = {
  name: 'search',
  summary: "find text in every agent's sessions",
  usage:
    'search <query> [dir…] [--json] [--agent <a>] [--project <p>] [--since <d>] [--until <d>] [--role <r>] [--limit <n>] [--no-pager]',
  description: `
Finds <query> in sessions: with no <dir>, every agent's usual locations (as \`list\`); else the
sessions under each <dir>, walked a few levels down. An event matches when its text holds every
word of the query ("a quoted phrase" is one word), case-insensitively: user and assistant
messages, thinking, tool input and output, titles and compaction summaries.

Every hit is printed, newest session first, each session's best hits first (a match at word
boundaries, a user or assistant message), with the file, session, line, record uuid and a snippet
around the match; --limit <n> prints the first <n> and says how many there were. On a terminal the
hits go through a pager as git log's do ($PAGER, else less -R; --no-pager or a pipe: none).
Snippets show control characters as visible symbols, pager or not.

What could not be searched is named on stderr (and in --json's "unsearched"), with why: a session
file it may not read (EACCES), a line too long to search. A line over the 16 MiB line bound is
searched as raw text in 1 MiB chunks (a hit there has role long-line).

Search keeps an index next to the catalog cache ($SESSIONTAPE_CACHE_DIR, else
$XDG_CACHE_HOME/sessiontape, else ~/.cache/sessiontape), brought up to date on every search: a
session a live agent appended to is searched with its new lines. The index only rules sessions out;
every hit is found by reading the session, so none is missed. Nothing is written anywhere else. A
cache directory that is a link, is not yours, or that group or others may enter is not used: the
search then reads every session (slower, never wrong) and says so once.
`,
  options: [
    {
      name: 'json',
      help: 'print {"total","truncated","unsearched":[{file,line?,code,reason}],"hits":[{file,sessionId,format,uuid,line,role,snippet,…}]}',
    },
    {
      name: 'agent',
      value: '<a>',
      help: `only sessions of these agents, comma-separated (${AGENTS.join(', ')})`,
    },
    { name: 'project', value: '<p>', help: 'only sessions whose working directory contains <p>' },
    {
      name: 'since',
      value: '<d>',
      help: 'only from this time on: 2026-03-01, 2026-03-01T09:00Z, or 7d / 12h / 30m / 2w ago',
    },
    { name: 'until', value: '<d>', help: 'only up to this time (a date alone: the end of that day, UTC)' },
    {
      name: 'role',
      value: '<r>',
      help: `only hits in these kinds of text, comma-separated (${[...SEARCH_ROLES, 'tool'].join(', ')})`,
    },
    {
      name: 'limit',
      value: '<n>',
      help: 'at most <n> hits (default: every hit; total and truncated say what was cut)',
    },
    { name: 'no-pager', help: 'never page the hits (a pipe never is)' },
  ],
  exitCodes:
    '0 found, 1 nothing found and everything searched, 2 something could not be searched (named on stderr), a <dir> missing or a bad command line.',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(searchCommand, args)
    const [query, ...given] = positionals
    if (query === undefined || query.trim() === '')
      throw new CliError('sessiontape search: missing <query>. Run `sessiontape search --help`.')
    const dirs: string[] = []
    for (const dir of given) dirs.push(await requireDirectory('search', dir))
    const agents = listOption(values.agent)
    for (const agent of agents)
      if (!AGENTS.includes(agent))
        usage(`unknown --agent ${JSON.stringify(agent)}; expected ${AGENTS.join(', ')}`)
    const roles = listOption(values.role)
    for (const role of roles) {
      if (role !== 'tool' && !(SEARCH_ROLES as readonly string[]).includes(role))
        usage(`unknown --role ${JSON.stringify(role)}; expected ${[...SEARCH_ROLES, 'tool'].join(', ')}`)
    }
    const since = timeOption('since', stringOption(values.since), false)
    const until = timeOption('until', stringOption(values.until), true)
    const limitText = stringOption(values.limit)
    const limit = limitText === undefined ? undefined : Number(limitText)
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1))
      usage(`--limit expects a whole number ≥ 1, got ${JSON.stringify(limitText)}`)
    const project = stringOption(values.project)
    let cacheProblem: string | undefined
    const result = await searchSessions(query, {
      ...(dirs.length === 0 ? {} : { dirs }),
      ...(agents.length === 0 ? {} : { agent: agents as SearchHit['agent'][] }),
      ...(project === undefined ? {} : { project }),
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(roles.length === 0 ? {} : { role: roles as (SearchRole | 'tool')[] }),
      ...(limit === undefined ? {} : { limit }),
      // This process does nothing else meanwhile: synchronous stats and cache reads spare a thread-pool
      // round trip per file (docs/search.md, "What a warm call costs").
      blocking: true,
      signal: io.signal,
      onCacheError: (error) => {
        // Said once: a refused directory (ERR_CACHE_DIR_UNSAFE) says which and why in its message.
        cacheProblem ??=
          (error as { code?: unknown }).code === 'ERR_CACHE_DIR_UNSAFE'
            ? (error as Error).message
            : `the search index could not be saved (${(error as NodeJS.ErrnoException).code ?? String(error)}); the next search reads the sessions again`
      },
    })
    if (cacheProblem !== undefined) io.err(`${displayLine(`sessiontape search: ${cacheProblem}`)}\n`)
    for (const { file, line, reason } of result.unsearched) {
      const where = line === undefined ? file : `${file}:${line}`
      io.err(`${displayLine(`sessiontape search: not searched: ${where}: ${reason}`)}\n`)
    }
    if (values.json === true) {
      const { total, truncated, unsearched, hits } = result
      writeJson(io, { total, truncated, unsearched, hits })
    } else await pageText(formatHits(result), values['no-pager'] === true, io)
    if (result.unsearched.length > 0) return ExitCode.UNREADABLE
    return result.hits.length > 0 ? ExitCode.OK : ExitCode.PROBLEMS
  },
}

function usage(message: string): never {
  throw new CliError(`sessiontape search: ${message}`, ExitCode.UNREADABLE, 'ERR_USAGE')
}

function listOption(value: string | boolean | undefined): string[] {
  const given = stringOption(value)
  return given === undefined
    ? []
    : given
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
}

function timeOption(name: string, given: string | undefined, endOfDay: boolean): Date | undefined {
  if (given === undefined) return undefined
  const relative = RELATIVE.exec(given)
  if (relative !== null)
    return new Date(Date.now() - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS])
  const at = Date.parse(DATE_ONLY.test(given) ? `${given}T00:00:00.000Z` : given)
  if (!Number.isFinite(at))
    usage(
      `--${name} expects a date (2026-03-01), a time (2026-03-01T09:00Z) or a duration (7d), got ${JSON.stringify(given)}`,
    )
  return new Date(DATE_ONLY.test(given) && endOfDay ? at + UNIT_MS.d - 1 : at)
}

function formatHits(result: SearchResult): string {
  const { hits, searched, total, unsearched } = result
  const missed =
    unsearched.length === 0
      ? ''
      : `; ${unsearched.length} file(s), line(s) or directories could not be searched, named on stderr`
  if (total === 0)
    return unsearched.length === 0
      ? `No hits in ${searched} session(s)\n`
      : `No hits in the ${searched} session(s) searched${missed}\n`
  let text = ''
  const sessions = new Set<string>()
  for (const hit of hits) {
    sessions.add(hit.file)
    const when = hit.timestamp === undefined ? '' : `${shortTime(hit.timestamp)}  `
    text += `${when}${hit.agent}  ${displayLine(hit.sessionId)}  ${hit.role}  line ${hit.line}\n`
    text += `    ${displayLine(hit.snippet)}\n`
    text += `    ↳ ${displayLine(hit.file)}\n`
  }
  const shown = result.truncated ? `${hits.length} of ${total} hit(s) shown (--limit)` : `${total} hit(s)`
  return `${text}${shown} in ${sessions.size} session(s) (${searched} searched${missed})\n`
}
