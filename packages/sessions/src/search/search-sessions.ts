import { refreshCatalog } from '../catalog/catalog.js'
import { sessionOf } from '../catalog/catalog-session.js'
import type { CachedEntry } from '../catalog/cache-store.js'
import { CATALOG_OPTION_NAMES, checkCatalogOptions } from '../catalog/options.js'
import { checkOptionsBag, invalid } from '../options.js'
import { checkFilters, mayHold, passes } from './filters.js'
import type { SearchOptions } from './options.js'
import { parseQuery } from './query.js'
import { searchFile, type SearchHit, type Unsearched } from './search-file.js'
import { queryColumns } from './trigram-filter.js'

export type { SearchHit, Unsearched } from './search-file.js'

export interface SearchResult {
  /** The hits, newest session first, each session's best first: every hit unless `limit` or `perSession` cut. */
  readonly hits: readonly SearchHit[]
  /** Every hit found, before `limit` and `perSession`. */
  readonly total: number
  /** Whether `hits` holds fewer than `total` (a `limit` or `perSession` was given and cut). */
  readonly truncated: boolean
  /**
   * Files and lines that could not be searched, each with why: when not empty, the answer may miss hits
   * there (the CLI then ends with exit code 2, never "no hits").
   */
  readonly unsearched: readonly Unsearched[]
  /** Sessions (files) looked at after the filters, and how many the index let through to be read. */
  readonly searched: number
  readonly candidates: number
}

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

/**
 * Finds `query` in the sessions under `options.dirs` (by default every agent's usual locations): every
 * term (a word, or a "quoted phrase"), case-insensitively, in one event's text — user and assistant
 * messages, thinking, tool input and output, titles, compaction summaries. Hits come newest session first,
 * each session's best hits first (a match at word boundaries, a user or assistant message).
 *
 * The index is brought up to date first (an appended session is searchable at once); it only rules files
 * out, and every hit is found by reading the file, so no session that holds the terms is ever missed.
 * What could not be searched (a file it may not read, a line too long to search) is named in `unsearched`;
 * every hit is returned unless `limit` or `perSession` asks for fewer, and `total` counts them all.
 */
export async function searchSessions(query: string, options: SearchOptions = {}): Promise<SearchResult> {
  if (typeof query !== 'string') throw invalid('query', query, 'a string')
  const parsed = parseQuery(query)
  if (parsed.terms.length === 0) throw invalid('query', query, 'at least one word')
  const bag = checkOptionsBag(options, OPTION_NAMES, 'searchSessions()')
  const where = checkCatalogOptions(bag)
  const filters = checkFilters(bag)
  const columns = queryColumns(parsed.keys)
  const { entries, skipped } = await refreshCatalog(where.dirs, {
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
  const unsearched: Unsearched[] = skipped.map(({ dir, code }) => ({
    file: dir,
    code,
    reason:
      code === 'ERR_WALK_BOUND'
        ? 'the walk stopped at its bound on directories or files below it'
        : `a directory that could not be read (${code})`,
  }))
  const candidates: { entry: CachedEntry; parent: CachedEntry | undefined; updated: number }[] = []
  for (const entry of entries) {
    if (entry.note !== undefined) {
      // Nothing is known of what it holds (not even its agent or times): named whatever the filters.
      const code = entry.unreadable ?? 'ERR_READ'
      unsearched.push({ file: entry.file, code, reason: `could not be read (${code})` })
      continue
    }
    const parent = entry.parent === undefined ? undefined : parents?.get(entry.parent)
    if (!passes(filters, parent ?? entry, entry)) continue
    searched++
    if (mayHold(entry, columns)) candidates.push({ entry, parent, updated: entry.last ?? entry.mtimeMs })
  }
  candidates.sort((a, b) => b.updated - a.updated)
  const hits: SearchHit[] = []
  let total = 0
  let read = 0
  // Every candidate is read, also past `limit`: `total` is then every hit, not a guess.
  for (const { entry, parent } of candidates) {
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
    total += found.hits.length
    unsearched.push(...found.unsearched)
    const room = Math.min(filters.perSession, filters.limit - hits.length)
    if (room > 0) hits.push(...found.hits.slice(0, room))
  }
  return { hits, total, truncated: hits.length < total, unsearched, searched, candidates: read }
}
