/**
 * The redactor's prefilter: one pass over a text that says which literal anchors it holds. Every rule
 * names the literal text each of its findings must contain (`ghp_`, `AKIA`, `://`, a keyword like `token`);
 * a rule whose anchors are all absent cannot find anything and is not run. Most of a session holds none, so
 * most texts cost this one pass instead of thirty regular expressions (secretlint's rules and ours).
 */

/** A literal every finding of some rule contains; `caseless` when the rule matches it in any case. */
export interface Anchor {
  readonly text: string
  readonly caseless?: boolean
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** `token` → `[tT][oO][kK][eE][nN]`: case-insensitive without the `i` flag, which would apply to every anchor. */
function anyCase(text: string): string {
  let out = ''
  for (const char of text) {
    const lower = char.toLowerCase()
    const upper = char.toUpperCase()
    out += lower === upper ? escape(char) : `[${lower}${upper}]`
  }
  return out
}

/** How many distinct hit texts are remembered. */
const MAX_REMEMBERED_HITS = 4096

export class AnchorScan {
  readonly #pattern: RegExp
  readonly #anchors: readonly Anchor[]
  /** The anchors each hit text names, remembered (code holds `key`, `Key`, `KEY` thousands of times). */
  readonly #byHit = new Map<string, readonly string[]>()

  constructor(anchors: readonly Anchor[]) {
    // Longest first: where one anchor starts like another (`passwd`, `pass`), the longer one is tried first
    // and the shorter is reported with it (see #named).
    this.#anchors = [...anchors].sort((a, b) => b.text.length - a.text.length)
    this.#pattern = new RegExp(
      this.#anchors.map((a) => (a.caseless === true ? anyCase(a.text) : escape(a.text))).join('|'),
      'g',
    )
  }

  /** Every anchor that `found` (the text of one hit) starts with. */
  #named(found: string, into: Set<string>): void {
    let named = this.#byHit.get(found)
    if (named === undefined) {
      const lower = found.toLowerCase()
      named = this.#anchors
        .filter((a) =>
          a.caseless === true ? lower.startsWith(a.text.toLowerCase()) : found.startsWith(a.text),
        )
        .map((a) => a.text)
      // Bounded: a caseless anchor has a spelling per mix of cases; past the bound, hits are named anew.
      if (this.#byHit.size < MAX_REMEMBERED_HITS) this.#byHit.set(found, named)
    }
    for (const text of named) into.add(text)
  }

  /**
   * The anchors `text` holds (by their text as given). Overlapping anchors are all found: the scan resumes
   * one character after each hit, not after its end.
   */
  scan(text: string): Set<string> {
    const hits = new Set<string>()
    const pattern = this.#pattern
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      this.#named(match[0], hits)
      pattern.lastIndex = match.index + 1
    }
    return hits
  }
}
