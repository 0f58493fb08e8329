import { FsCacheArgumentError } from './errors.js'

/**
 * Names other libraries use for the same idea, so a user coming from them is told our equivalent
 * instead of having the option silently ignored (`{ ttl: 500 }` once applied no expiry at all).
 */
export type ForeignNames = Readonly<Record<string, string>>

/**
 * Throws when `options` has an own key that is not in `known`: a misspelt or foreign option is a caller
 * bug, and ignoring it silently changes behaviour (no expiry, no bound) without a word. The message names
 * the key and the nearest known one, or what a well-known foreign name is called here.
 */
export function assertKnownKeys(
  where: string,
  options: object | undefined,
  known: readonly string[],
  foreign: ForeignNames = {},
): void {
  if (options === undefined) return
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue
    const hint = Object.hasOwn(foreign, key) ? foreign[key] : nearestHint(key, known)
    throw new FsCacheArgumentError(`Unknown option \`${key}\` in ${where}${hint ? `: ${hint}` : ''}`)
  }
}

function nearestHint(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  // Beyond a third of the name, a "did you mean" is noise rather than help.
  if (best === undefined || bestDistance > Math.max(2, Math.floor(key.length / 3))) {
    return `known options are ${known.map((k) => `\`${k}\``).join(', ')}`
  }
  return `did you mean \`${best}\`?`
}

/** Levenshtein distance; option names are short, so the O(n·m) table is nothing. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, substitution))
    }
    previous = row
  }
  return previous[b.length] as number
}
