import type { TranscriptFormat } from '@sessiontape/recorder'
import { refreshCatalog } from '../catalog/catalog.js'
import { sessionOf, type CatalogSession } from '../catalog/catalog-session.js'
import { digestOf, type CachedEntry } from '../catalog/cache-store.js'
import { CATALOG_OPTION_NAMES, checkCatalogOptions } from '../catalog/options.js'
import { readEvents } from '../catalog/read-events.js'
import { agentOf } from '../formats/index.js'
import type { Agent, ConversationEvent } from '../model.js'
import { checkOptionsBag, invalid } from '../options.js'
import type { SearchOptions } from './options.js'
import { parseQuery, type ParsedQuery } from './query.js'
import { searchableText, SEARCH_ROLES, type SearchRole } from './searchable-text.js'
import { snippetAround } from './snippet.js'
import { queryColumns, rowHasAll } from './trigram-filter.js'

/** One place a query matched. */
export interface SearchHit {
  readonly file: string
  readonly sessionId: string
  readonly format: TranscriptFormat
  readonly agent: Agent
  /** The record's uuid (absent for a line that is not a record, e.g. a title line): `null` then. */
  readonly uuid: string | null
  /** The model's event id (unique in the file; `<uuid>#n` for the n-th part of a record). */
  readonly eventId: string
  /** 1-based line of the file (0 for a Gemini JSON document). */
  readonly line: number
  readonly role: SearchRole
  readonly timestamp?: string
  /** Up to ~160 characters around the first match, on one line. Raw text: escape it before a terminal. */
  readonly snippet: string
  /** The session's title and project, for a picker. */
  readonly title?: string
  readonly cwd?: string
}

export interface SearchResult {
  readonly hits: readonly SearchHit[]
  /** Sessions (files) looked at after the filters, and how many the index let through to be read. */
  readonly searched: number
  readonly candidates: number
}

const DEFAULT_LIMIT = 50
const DEFAULT_PER_SESSION = 5
const OPTION_NAMES = [
  ...CATALOG_OPTION_NAMES,
  'agent',
  'project',
  'since',
  'until',
  'role',
  'limit',
  'perSession',
] as const
/** Role weights for ranking hits inside a session: what a person wrote or read first. */
const ROLE_WEIGHT: Readonly<Record<SearchRole, number>> = {
  user: 4,
  title: 4,
  assistant: 3,
  compaction: 2,
  thinking: 1,
  'tool-call': 1,
  'tool-result': 1,
  marker: 1,
}

/**
 * Finds `query` in the sessions under `options.dirs` (by default every agent's usual locations): every
 * term (a word, or a "quoted phrase"), case-insensitively, in one event's text — user and assistant
 * messages, thinking, tool input and output, titles, compaction summaries. Hits come newest session first,
 * each session's best hits first (a match at word boundaries, a user or assistant message).
 *
 * The index is brought up to date first (an appended session is searchable at once); it only rules files
 * out, and every hit is found by reading the file, so no session that holds the terms is ever missed.
 */
export async function searchSessions(query: string, options: SearchOptions = {}): Promise<SearchResult> {
  if (typeof query !== 'string') throw invalid('query', query, 'a string')
  const parsed = parseQuery(query)
  if (parsed.terms.length === 0) throw invalid('query', query, 'at least one word')
  const bag = checkOptionsBag(options, OPTION_NAMES, 'searchSessions()')
  const where = checkCatalogOptions(bag)
  const filters = checkFilters(bag)
  const columns = queryColumns(parsed.keys)
  const { entries } = await refreshCatalog(where.dirs, {
    cacheDir: where.cacheDir,
    walk: where.walk,
    blocking: where.blocking,
    query: columns,
    signal: where.signal,
    onCacheError: where.onCacheError,
  })
  // Subagent transcripts are filtered as their session: their parents by file (none in most trees).
  const parents = entries.some((entry) => entry.parent !== undefined)
    ? new Map(entries.map((entry) => [entry.file, entry]))
    : undefined
  // Session-level filters from the entries' own numbers, then the order, of only the files the index lets
  // through: every other file is counted as searched and never looked at again (a warm search's 3,000
  // entries are not sorted to read 8 of them; sorting is stable, so the files read and their order are the
  // same as sorting all of them first).
  let searched = 0
  const candidates: { entry: CachedEntry; parent: CachedEntry | undefined; updated: number }[] = []
  for (const entry of entries) {
    if (entry.note !== undefined) continue
    const parent = entry.parent === undefined ? undefined : parents?.get(entry.parent)
    if (!passes(filters, parent ?? entry, entry)) continue
    searched++
    if (mayHold(entry, columns)) candidates.push({ entry, parent, updated: entry.last ?? entry.mtimeMs })
  }
  candidates.sort((a, b) => b.updated - a.updated)
  const hits: SearchHit[] = []
  let read = 0
  for (const { entry, parent } of candidates) {
    if (hits.length >= filters.limit) break
    where.signal?.throwIfAborted()
    read++
    const session = sessionOf(entry)
    const found = await searchFile(
      entry,
      parent === undefined ? session : { ...sessionOf(parent), file: session.file },
      parsed,
      filters,
      where.signal,
    )
    hits.push(...found.slice(0, Math.min(filters.perSession, filters.limit - hits.length)))
  }
  return { hits, searched, candidates: read }
}

interface Filters {
  readonly agents: ReadonlySet<string> | undefined
  readonly project: string | undefined
  readonly since: number
  readonly until: number
  readonly roles: ReadonlySet<SearchRole> | undefined
  readonly limit: number
  readonly perSession: number
}

function checkFilters(bag: Readonly<Record<string, unknown>>): Filters {
  const { agent, project, since, until, role, limit, perSession } = bag
  const agents = agent === undefined ? undefined : Array.isArray(agent) ? agent : [agent]
  if (agents !== undefined && !agents.every((a) => typeof a === 'string' && a !== ''))
    throw invalid('agent', agent, 'an agent name or an array of them')
  if (project !== undefined && typeof project !== 'string') throw invalid('project', project, 'a string')
  for (const [name, value] of [
    ['since', since],
    ['until', until],
  ] as const) {
    if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime())))
      throw invalid(name, value, 'a valid Date')
  }
  const roles = role === undefined ? undefined : Array.isArray(role) ? role : [role]
  if (
    roles !== undefined &&
    !roles.every((r) => r === 'tool' || (SEARCH_ROLES as readonly unknown[]).includes(r))
  ) {
    throw invalid(
      'role',
      role,
      `one of ${[...SEARCH_ROLES, 'tool'].map((r) => `'${r}'`).join(', ')} (or an array of them)`,
    )
  }
  for (const [name, value] of [
    ['limit', limit],
    ['perSession', perSession],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1))
      throw invalid(name, value, 'a whole number ≥ 1')
  }
  return {
    agents: agents === undefined ? undefined : new Set(agents as string[]),
    project: project,
    since: since === undefined ? -Infinity : (since as Date).getTime(),
    until: until === undefined ? Infinity : (until as Date).getTime(),
    roles:
      roles === undefined
        ? undefined
        : new Set(
            (roles as string[]).flatMap((r) =>
              r === 'tool' ? ['tool-call', 'tool-result'] : [r],
            ) as SearchRole[],
          ),
    limit: (limit as number | undefined) ?? DEFAULT_LIMIT,
    perSession: (perSession as number | undefined) ?? DEFAULT_PER_SESSION,
  }
}

/** Whether the file's filter lets it through (a file without one is read: the index never rules out blindly). */
function mayHold(entry: CachedEntry, columns: readonly number[]): boolean {
  const filter = entry.filter
  if (filter?.bytes !== undefined) return rowHasAll(filter.bytes, columns)
  return filter?.matches ?? true
}

/** Session-level filters; `owner` is the session a subagent transcript belongs to (itself otherwise). */
function passes(filters: Filters, owner: CachedEntry, entry: CachedEntry): boolean {
  if (filters.agents !== undefined && !filters.agents.has(agentOf(owner.format))) return false
  if (filters.project !== undefined && !(digestOf(owner).cwd ?? '').includes(filters.project)) return false
  // A file without a time goes by its mtime (as its session's createdAt and updatedAt do).
  const { first, last } = entry
  return (last ?? entry.mtimeMs) >= filters.since && (first ?? entry.mtimeMs) <= filters.until
}

/** Reads one candidate file and returns its hits, best first. */
async function searchFile(
  entry: CachedEntry,
  session: CatalogSession,
  query: ParsedQuery,
  filters: Filters,
  signal: AbortSignal | undefined,
): Promise<SearchHit[]> {
  const scored: { hit: SearchHit; score: number }[] = []
  const onEvent = (event: ConversationEvent): void => {
    const role = event.kind as SearchRole
    if (filters.roles !== undefined && !filters.roles.has(role)) return
    const text = searchableText(event)
    if (text === undefined) return
    if (event.timestamp !== undefined) {
      const at = Date.parse(event.timestamp)
      if (at < filters.since || at > filters.until) return
    }
    const lower = text.toLowerCase()
    let first = -1
    let words = 0
    for (const term of query.terms) {
      const at = lower.indexOf(term)
      if (at === -1) return
      if (first === -1) first = at
      if (atWordBoundaries(lower, at, term.length)) words++
    }
    // Lower-casing can change a string's length (rare letters): the snippet is then cut from the lower-cased text.
    const source = lower.length === text.length ? text : lower
    const raw = event.raw as { uuid?: unknown } | null | undefined
    const uuid =
      raw !== null && typeof raw === 'object' && typeof raw.uuid === 'string' && raw.uuid !== ''
        ? raw.uuid
        : null
    scored.push({
      score: words * 10 + ROLE_WEIGHT[role],
      hit: {
        file: entry.file,
        sessionId: session.sessionId,
        format: entry.format,
        agent: session.agent,
        uuid,
        eventId: event.id,
        line: event.line,
        role,
        ...(event.timestamp === undefined ? {} : { timestamp: event.timestamp }),
        snippet: snippetAround(source, first, query.terms[0]!.length),
        ...(session.title === undefined ? {} : { title: session.title }),
        ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
      },
    })
  }
  await readEvents(
    entry.file,
    entry.format,
    undefined,
    { event: onEvent, record: () => undefined, problem: () => undefined },
    signal,
  )
  return scored.sort((a, b) => b.score - a.score || a.hit.line - b.hit.line).map(({ hit }) => hit)
}

function atWordBoundaries(text: string, at: number, length: number): boolean {
  const word = /[\p{L}\p{N}_]/u
  return (
    (at === 0 || !word.test(text[at - 1]!)) && (at + length >= text.length || !word.test(text[at + length]!))
  )
}
