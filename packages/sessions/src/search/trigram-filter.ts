/**
 * The search index: one small Bloom filter per session file over the hashed trigrams of its lower-cased
 * text. It only ever says "this file cannot contain the term" or "it may": a query's candidate files are
 * those whose filter has every trigram of every term, and each candidate is then read and matched exactly.
 * So a hash collision or a false positive costs a wasted read, never a missed hit (the code-search design:
 * an index that over-approximates, a scan that decides).
 *
 * Why a filter per file rather than one inverted index: a file's filter depends on that file alone, so an
 * appended tail only sets more bits (trigrams are never removed by an append), a changed file replaces its
 * own filter, and a deleted one drops it — no posting list to rewrite. Measured on 3,000 generated Claude
 * sessions (450 MB, 326 MB of text): ~7,400 distinct trigrams per file.
 */

/** Trigrams are hashed into this many bits before they reach a filter (collisions only cost false positives). */
export const TRIGRAM_HASH_BITS = 22
/** Calls `sink` with the hashed key of every trigram of `text` (already lower-cased), duplicates included. */
export function forEachTrigram(text: string, sink: (key: number) => void): void {
  let a = 0
  let b = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (i >= 2) sink(trigramKey(a, b, c))
    a = b
    b = c
  }
}

/** The hashed key of one trigram of UTF-16 code units (multiply-xor mixing, top bits kept). */
export function trigramKey(a: number, b: number, c: number): number {
  return (
    (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>>
    (32 - TRIGRAM_HASH_BITS)
  )
}

/**
 * Collects the distinct trigram keys of one file's text (or of an appended tail). One collector is reused
 * for every file of a run: its stamp table (16 MiB) is allocated once, and a new generation clears it.
 */
export class TrigramCollector {
  // stamp[key] === #generation: the key was seen in the current file; avoids a Set per file.
  readonly #stamp = new Uint32Array(1 << TRIGRAM_HASH_BITS)
  #generation = 0
  #keys = new Uint32Array(1 << 14)
  #count = 0

  /** Starts a new file. */
  reset(): void {
    this.#generation++
    this.#count = 0
    if (this.#generation === 0xffffffff) {
      this.#stamp.fill(0)
      this.#generation = 1
    }
  }

  add(text: string): void {
    const stamp = this.#stamp
    const generation = this.#generation
    let a = 0
    let b = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (i >= 2) {
        const key = trigramKey(a, b, c)
        if (stamp[key] !== generation) {
          stamp[key] = generation
          if (this.#count === this.#keys.length) {
            const bigger = new Uint32Array(this.#keys.length * 2)
            bigger.set(this.#keys)
            this.#keys = bigger
          }
          this.#keys[this.#count++] = key
        }
      }
      a = b
      b = c
    }
  }

  get count(): number {
    return this.#count
  }

  /** The distinct keys seen since {@link reset} (a view, valid until the next call). */
  keys(): Uint32Array {
    return this.#keys.subarray(0, this.#count)
  }
}

/**
 * Every file's filter has the same geometry: {@link FILTER_COLUMNS} bits, one per bucket of trigram keys (one
 * probe). One geometry is what lets a shard store its filters transposed — bucket by bucket, one bit per file
 * ("bit-sliced", as in BitFunnel and bitsliced signature files) — so that a query reads only the buckets its
 * terms fall in (a few dozen bytes per bucket and shard) instead of every file's whole filter (~28 MB for
 * 3,000 sessions, which was most of a warm search's cost). A typical session (~7,400 distinct trigrams) sets
 * ~11 % of the bits, so a term of n trigrams passes a file without it about 0.11ⁿ of the time (a 5-letter
 * word: 2·10⁻⁵); a huge session fills its filter and is read for more queries (slower, never wrong).
 */
export const FILTER_COLUMNS = 1 << 16
/** Bytes of one file's filter (its row). */
export const FILTER_BYTES = FILTER_COLUMNS >>> 3
/**
 * Buckets a query reads at most: a longer query checks a subset of its trigrams' buckets (fewer buckets only
 * let more files through, never fewer), so its index reads stay bounded.
 */
const MAX_QUERY_COLUMNS = 48

/** A new, empty filter (one file's row). */
export function newFilter(): Uint8Array {
  return new Uint8Array(FILTER_BYTES)
}

/** The bucket (bit of a row, row of a transposed table) of a trigram key. */
export function columnOf(key: number): number {
  return (Math.imul(key, 0x2c1b3c6d) >>> 0) % FILTER_COLUMNS
}

/** Sets the bit of each key; returns how many bits were newly set. */
export function addToFilter(filter: Uint8Array, keys: Uint32Array): number {
  let added = 0
  for (let i = 0; i < keys.length; i++) {
    const bit = columnOf(keys[i]!)
    const byte = bit >>> 3
    const flag = 1 << (bit & 7)
    if ((filter[byte]! & flag) !== 0) continue
    filter[byte] = filter[byte]! | flag
    added++
  }
  return added
}

/** The distinct buckets of a query's keys, ascending, at most {@link MAX_QUERY_COLUMNS}. */
export function queryColumns(keys: readonly number[]): number[] {
  return [...new Set(keys.map(columnOf))].slice(0, MAX_QUERY_COLUMNS).sort((a, b) => a - b)
}

/** Whether one file's filter (a row) has every bucket of `columns`. */
export function rowHasAll(row: Uint8Array, columns: readonly number[]): boolean {
  for (const column of columns) if ((row[column >>> 3]! & (1 << (column & 7))) === 0) return false
  return true
}

/** Bytes of one bucket in a table of `rows` files: one bit per file. */
export function columnBytes(rows: number): number {
  return (rows + 7) >>> 3
}

/**
 * The filters of `rows` files transposed: bucket c's run of bits at `c × pitch` (`pitch` ≥
 * `columnBytes(rows)`; the bytes past a run are left zero for the caller), file i at bit i of that run.
 * Only the set bits of each row are visited (a row is ~89 % zero bytes).
 */
export function transpose(rows: readonly Uint8Array[], pitch = columnBytes(rows.length)): Uint8Array {
  const table = new Uint8Array(FILTER_COLUMNS * pitch)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const at = i >>> 3
    const flag = 1 << (i & 7)
    for (let byte = 0; byte < FILTER_BYTES; byte++) {
      let bits = row[byte]!
      while (bits !== 0) {
        const low = bits & -bits
        const cell = ((byte << 3) + 31 - Math.clz32(low)) * pitch + at
        table[cell] = table[cell]! | flag
        bits ^= low
      }
    }
  }
  return table
}

/** The rows of a transposed table of `count` files, runs `pitch` bytes apart (the inverse of {@link transpose}). */
export function untranspose(table: Uint8Array, count: number, pitch = columnBytes(count)): Uint8Array[] {
  const stride = columnBytes(count)
  const rows = Array.from({ length: count }, newFilter)
  for (let column = 0; column < FILTER_COLUMNS; column++) {
    const byte = column >>> 3
    const flag = 1 << (column & 7)
    for (let b = 0; b < stride; b++) {
      let bits = table[column * pitch + b]!
      while (bits !== 0) {
        const low = bits & -bits
        const row = rows[(b << 3) + 31 - Math.clz32(low)]
        if (row !== undefined) row[byte] = row[byte]! | flag
        bits ^= low
      }
    }
  }
  return rows
}

/** The distinct keys of a search term (lower-cased); empty for a term shorter than a trigram. */
export function termKeys(term: string): number[] {
  const keys = new Set<number>()
  forEachTrigram(term, (key) => keys.add(key))
  return [...keys]
}
