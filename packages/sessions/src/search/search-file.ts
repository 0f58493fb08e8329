import type { TranscriptFormat } from '@sessiontape/recorder'
import type { CatalogSession } from '../catalog/catalog-session.js'
import type { CachedEntry } from '../catalog/cache-store.js'
import { isCompressedName } from '../catalog/discover.js'
import { CATALOG_MAX_LINE_BYTES, readEvents } from '../catalog/read-events.js'
import type { Agent, ConversationEvent } from '../model.js'
import type { Filters } from './filters.js'
import { longLineMatch } from './long-line.js'
import type { ParsedQuery } from './query.js'
import { searchableText, type SearchRole } from './searchable-text.js'
import { snippetAround } from './snippet.js'

/** One place a query matched. */
export interface SearchHit {
  readonly file: string
  readonly sessionId: string
  readonly format: TranscriptFormat
  readonly agent: Agent
  /** The record's uuid (absent for a line that is not a record, e.g. a title line): `null` then. */
  readonly uuid: string | null
  /** The model's event id (unique in the file; `<uuid>#n` for the n-th part of a record); `line:<n>` for a long line. */
  readonly eventId: string
  /** 1-based line of the file (0 for a Gemini JSON document). */
  readonly line: number
  /**
   * The kind of text that matched; `'long-line'` for a line too long to parse (over 16 MiB), searched as
   * raw text in chunks (search/long-line.ts): its role is not known.
   */
  readonly role: SearchRole | 'long-line'
  readonly timestamp?: string
  /** Up to ~160 characters around the first match, on one line. Raw text: escape it before a terminal. */
  readonly snippet: string
  /** The session's title and project, for a picker. */
  readonly title?: string
  readonly cwd?: string
}

/** A file, one line of it, or a directory of the walk that a search could not search: a hit may be there. */
export interface Unsearched {
  /** The file, or the directory (a walk that could not read it or stopped at its bound). */
  readonly file: string
  /** The line, when only that line could not be searched. */
  readonly line?: number
  /** Stable: an error code (`EACCES`, `ENOENT`), or `ERR_LINE_TOO_LONG`, `ERR_WALK_BOUND`, `ERR_NOT_A_FILE`. */
  readonly code: string
  /** What happened, for a person. */
  readonly reason: string
}

/** Role weights for ranking hits inside a session: what a person wrote or read first. */
const ROLE_WEIGHT: Readonly<Record<SearchRole | 'long-line', number>> = {
  user: 4,
  title: 4,
  assistant: 3,
  compaction: 2,
  thinking: 1,
  'tool-call': 1,
  'tool-result': 1,
  marker: 1,
  'long-line': 0,
}

/**
 * Reads one candidate file and returns its hits, best first, and what of it could not be searched. A line
 * over the reader's bound is searched in chunks (long-line.ts); it is named as not searched only when that
 * cannot answer: in a compressed file (its offset is not the file's), or when it holds the query but a
 * `role` filter cannot be applied to it.
 */
export async function searchFile(
  entry: CachedEntry,
  session: CatalogSession,
  query: ParsedQuery,
  filters: Filters,
  signal: AbortSignal | undefined,
): Promise<{ hits: SearchHit[]; unsearched: Unsearched[] }> {
  const scored: { hit: SearchHit; score: number }[] = []
  const unsearched: Unsearched[] = []
  const longLines: { line: number; offset: number; length: number }[] = []
  const hitOf = (
    fields: Pick<SearchHit, 'uuid' | 'eventId' | 'line' | 'role' | 'snippet'>,
    timestamp?: string,
  ) => ({
    file: entry.file,
    sessionId: session.sessionId,
    format: entry.format,
    agent: session.agent,
    ...fields,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(session.title === undefined ? {} : { title: session.title }),
    ...(session.cwd === undefined ? {} : { cwd: session.cwd }),
  })
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
    const snippet = snippetAround(source, first, query.terms[0]!.length)
    scored.push({
      score: words * 10 + ROLE_WEIGHT[role],
      hit: hitOf({ uuid, eventId: event.id, line: event.line, role, snippet }, event.timestamp),
    })
  }
  try {
    await readEvents(
      entry.file,
      entry.format,
      undefined,
      {
        event: onEvent,
        record: () => undefined,
        problem: () => undefined,
        overlong: (line, offset, length) => longLines.push({ line, offset, length }),
      },
      signal,
      entry.segments,
    )
  } catch (error) {
    if (signal?.aborted === true) throw error
    // Unreadable since the catalog read it (permissions changed, deleted, cut): named, never "no hits".
    const code = (error as NodeJS.ErrnoException).code ?? 'ERR_READ'
    unsearched.push({ file: entry.file, code, reason: `could not be read (${code})` })
    return { hits: [], unsearched }
  }
  for (const { line, offset, length } of longLines) {
    const tooLong = `a line of ${length} bytes, over the reader's ${CATALOG_MAX_LINE_BYTES}-byte bound`
    if (isCompressedName(entry.file)) {
      unsearched.push({
        file: entry.file,
        line,
        code: 'ERR_LINE_TOO_LONG',
        reason: `${tooLong}, in a compressed file`,
      })
      continue
    }
    let match
    try {
      match = await longLineMatch(entry.file, offset, length, query.terms, signal)
    } catch (error) {
      if (signal?.aborted === true) throw error
      const code = (error as NodeJS.ErrnoException).code ?? 'ERR_READ'
      unsearched.push({ file: entry.file, line, code, reason: `${tooLong}, could not be read (${code})` })
      continue
    }
    if (match === undefined) continue
    if (filters.roles !== undefined) {
      unsearched.push({
        file: entry.file,
        line,
        code: 'ERR_LINE_TOO_LONG',
        reason: `${tooLong}: it holds the query, but whether in the roles asked for cannot be told`,
      })
      continue
    }
    const snippet = snippetAround(match.text, match.index, query.terms[0]!.length)
    scored.push({
      score: ROLE_WEIGHT['long-line'],
      hit: hitOf({ uuid: null, eventId: `line:${line}`, line, role: 'long-line', snippet }),
    })
  }
  const hits = scored.sort((a, b) => b.score - a.score || a.hit.line - b.hit.line).map(({ hit }) => hit)
  return { hits, unsearched }
}

function atWordBoundaries(text: string, at: number, length: number): boolean {
  const word = /[\p{L}\p{N}_]/u
  return (
    (at === 0 || !word.test(text[at - 1]!)) && (at + length >= text.length || !word.test(text[at + length]!))
  )
}
