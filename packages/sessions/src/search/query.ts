import { termKeys } from './trigram-filter.js'

/** A parsed query: lower-cased terms (a quoted phrase is one term), each with its trigram keys. */
export interface ParsedQuery {
  readonly terms: readonly string[]
  /** Every term's trigram keys: a file's filter must have them all to be read. */
  readonly keys: readonly number[]
}

/**
 * Splits a query into terms: words, or `"a quoted phrase"` kept whole. Matching is case-insensitive
 * (lower-cased, as the index is) and by substring: an event matches when its text holds every term.
 */
export function parseQuery(query: string): ParsedQuery {
  const terms: string[] = []
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (match[1] ?? match[2] ?? '').toLowerCase()
    if (term.trim() !== '' && !terms.includes(term)) terms.push(term)
  }
  const keys = new Set<number>()
  for (const term of terms) for (const key of termKeys(term)) keys.add(key)
  return { terms, keys: [...keys] }
}
