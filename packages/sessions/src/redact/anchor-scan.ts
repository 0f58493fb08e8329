/**
 * The redactor's prefilter: one pass over a text that says which literal anchors it holds. Every rule
 * names the literal text each of its findings must contain (`ghp_`, `AKIA`, `://`, a keyword like `token`);
 * a rule whose anchors are all absent cannot find anything and is not run. Most of a session holds none, so
 * most texts cost this one pass instead of thirty regular expressions (secretlint's rules and ours).
 *
 * The pass is an Aho–Corasick automaton over the anchors folded to lower case, as a table: one lookup per
 * character, whatever the number of anchors. (A regular expression alternating the ~70 anchors cost 12–20 ns
 * per character, 0.7–1.1 s of a 100 MB export: almost every letter starts some anchor, so the engine tried
 * a match at nearly every position.) A case-sensitive anchor (`AKIA`) is found folded (`akia`) and then
 * checked against the text as written, which is rare: the fold only costs work where an anchor is.
 */

/** A literal every finding of some rule contains; `caseless` when the rule matches it in any case. */
export interface Anchor {
  readonly text: string
  readonly caseless?: boolean
}

/** Anchors are ASCII (checked when built): characters past it never take a step in the automaton. */
const ASCII = 128

/** What a text with no anchor holds: shared, never changed (scan's callers only read it). */
const NONE: ReadonlySet<string> = new Set()

function fold(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code
}

export class AnchorScan {
  /** The anchors, one per distinct text and case rule. */
  readonly #anchors: readonly Anchor[]
  /** Column of each ASCII character in the table (upper case as lower case); 0: in no anchor. */
  readonly #column = new Uint8Array(ASCII)
  /**
   * The automaton: the row of the state reached from the state whose row starts at `r` on a character of
   * column `c` is `#next[r + c]`. Rows are stored as their offsets, so a step is one addition and one load.
   */
  readonly #next: Int32Array
  /** The anchors (indices into #anchors) that end at the state of each row offset; unset: none. */
  readonly #ending = new Map<number, readonly number[]>()
  /** 1 at the row offset of a state where some anchor ends: the hot loop's only check. */
  readonly #ends: Uint8Array

  constructor(anchors: readonly Anchor[]) {
    const unique = new Map<string, Anchor>()
    for (const anchor of anchors) {
      if (anchor.text === '' || /[^\x20-\x7e]/.test(anchor.text)) {
        throw new TypeError(`Expected an anchor to be printable ASCII, got \`${anchor.text}\``)
      }
      unique.set(`${anchor.caseless === true ? 'i' : 's'}${anchor.text}`, anchor)
    }
    this.#anchors = [...unique.values()]
    // Columns: one per distinct folded character of the anchors, from 1.
    let width = 1
    for (const { text } of this.#anchors)
      for (let i = 0; i < text.length; i++) {
        const code = fold(text.charCodeAt(i))
        if (this.#column[code] === 0) this.#column[code] = width++
      }
    for (let code = 0x41; code <= 0x5a; code++) this.#column[code] = this.#column[code + 0x20]!
    // The trie of folded anchors; state 0 is the root.
    const children: Map<number, number>[] = [new Map<number, number>()]
    const ending: number[][] = [[]]
    this.#anchors.forEach(({ text }, index) => {
      let state = 0
      for (let i = 0; i < text.length; i++) {
        const column = this.#column[fold(text.charCodeAt(i))]!
        let child = children[state]!.get(column)
        if (child === undefined) {
          child = children.length
          children.push(new Map<number, number>())
          ending.push([])
          children[state]!.set(column, child)
        }
        state = child
      }
      ending[state]!.push(index)
    })
    // Breadth first: each state's missing steps are those of its longest proper suffix that is a trie state
    // (its failure state), which is complete already; so are the anchors ending there, which end here too.
    const next = new Int32Array(children.length * width)
    const fail = new Int32Array(children.length)
    const queue: number[] = []
    for (const [column, child] of children[0]!) {
      next[column] = child * width
      queue.push(child)
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!
      const row = state * width
      const failRow = fail[state]! * width
      ending[state]!.push(...ending[fail[state]!]!)
      for (let column = 0; column < width; column++) {
        const child = children[state]!.get(column)
        if (child === undefined) {
          next[row + column] = next[failRow + column]!
        } else {
          fail[child] = next[failRow + column]! / width
          next[row + column] = child * width
          queue.push(child)
        }
      }
    }
    this.#next = next
    this.#ends = new Uint8Array(next.length)
    ending.forEach((indices, state) => {
      if (indices.length === 0) return
      this.#ending.set(state * width, indices)
      this.#ends[state * width] = 1
    })
  }

  /** The anchors `text` holds (by their text as given), overlapping ones included. */
  scan(text: string): ReadonlySet<string> {
    let hits: Set<string> | undefined
    const next = this.#next
    const column = this.#column
    const ends = this.#ends
    let row = 0
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      row = next[row + (code < ASCII ? column[code]! : 0)]!
      if (ends[row] === 1) {
        for (const index of this.#ending.get(row)!) {
          const anchor = this.#anchors[index]!
          // Found folded: a case-sensitive anchor must also be there as written.
          if (anchor.caseless === true || text.startsWith(anchor.text, i + 1 - anchor.text.length)) {
            ;(hits ??= new Set()).add(anchor.text)
          }
        }
      }
    }
    return hits ?? NONE
  }
}
