import { lastUuidOf, presentUpTo } from './file-scan.js'
import type * as io from '../loop/io.js'
import type { Lost } from './path-outcome.js'

/**
 * How many of this session's records the open transcript holds, so that a truncation or an overwrite in
 * place can say how many it took. Counted by record, not by offset: after a cut, a rewrite or a copy put in
 * place, the records the file holds are counted by reading it (up to 64 MiB; past that, back from the end
 * to the nearest record whose count is known: the last record of each write, a few thousand of the latest
 * remembered), so bytes moved around cannot make the count wrong the way a remembered offset could.
 */

/** What is known of a record that ended one of our writes. */
export interface KnownRecord {
  /** Records of ours the file held up to and including this one. */
  readonly present: number
  /** How many records this recorder had written once this one was (for the watermarks). */
  readonly count: number
}

/** Where the records a cut left end: how many of ours the file holds up to there. */
export interface PresentAt {
  readonly present: number
  /** This recorder's count of records written at the last record left (0 when none of ours is). */
  readonly count: number
  /** False: a lower bound (the read back stopped before finding where our records start). */
  readonly exact: boolean
}

// Records remembered (one per write): the count of a cut is exact as long as one of them is left within a
// bounded read back from the cut. ~100 bytes each.
const MAX_KNOWN = 4096

export class PresentRecords {
  // Records of ours the file holds now.
  #present = 0
  // False once the count is only a lower bound (a file whose start we could not read back to).
  #exact = true
  readonly #known = new Map<string, KnownRecord>()
  // The last record the file held before this recorder wrote into it: where its records start (not one
  // of ours: a resumed session's records are counted from after it).
  #base: string | null = null
  // The transcript has been opened once: a later open (after a replacement) counts the records it finds.
  #began = false

  /** The transcript was opened before: a file found at the path now is another than the one we knew. */
  get began(): boolean {
    return this.#began
  }

  get present(): number {
    return this.#present
  }

  get exact(): boolean {
    return this.#exact
  }

  /** The record `uuid`, or null when it is not one we remember. */
  known(uuid: string): KnownRecord | null {
    if (uuid === this.#base) return { present: 0, count: 0 }
    return this.#known.get(uuid) ?? null
  }

  /** Whether a read back that reached the file's start without a known record counted only ours. */
  get startsWithOurs(): boolean {
    return this.#base === null
  }

  /** The last record the file held before ours (a resumed session's), or null. */
  get base(): string | null {
    return this.#base
  }

  /**
   * The file open as `fd` (`size` bytes) is now the transcript. The first time, nothing in it is ours (a
   * resumed session's records are not counted: they start after its last record); after that, it is
   * another file than the one we wrote (a copy put in its place, a new one), and what it holds of ours is
   * counted.
   */
  *opened(fd: number, size: number): io.Io<void> {
    if (this.#began) {
      this.found(yield* presentUpTo(fd, size, this))
      return
    }
    this.#began = true
    this.#base = size === 0 ? null : yield* lastUuidOf(fd, size)
    this.#present = 0
    this.#exact = true
  }

  /** The file open as `fd` was cut, or rewritten, to `size` bytes: what it lost of ours. */
  *cutTo(fd: number, size: number): io.Io<Lost> {
    const at = yield* presentUpTo(fd, size, this)
    return { ...this.nowHolds(at), kept: at.count }
  }

  /** A write completed `records` records, the last `uuid`, this recorder's `count`-th. */
  committed(records: number, uuid: string | null, count: number): void {
    if (records === 0) return
    this.#present += records
    if (uuid === null) return
    this.#known.set(uuid, { present: this.#present, count })
    if (this.#known.size > MAX_KNOWN) this.#known.delete(this.#known.keys().next().value!)
  }

  /** A record of this file written again further on (it was glued to someone's line): it is there now. */
  moved(uuid: string): void {
    const known = this.#known.get(uuid)
    if (known !== undefined) this.#known.set(uuid, { present: this.#present, count: known.count })
  }

  /** A record carried into the file from the one it replaced: where it is now is what counts. */
  carried(uuid: string): void {
    this.#present++
    const known = this.#known.get(uuid)
    if (known !== undefined) this.#known.set(uuid, { present: this.#present, count: known.count })
  }

  /** Another file is at the path now; it holds `at.present` of our records (nothing was lost by it). */
  found(at: PresentAt): void {
    this.#present = at.present
    this.#exact = at.exact
  }

  /**
   * The file holds `at.present` of our records now (after a cut, a rewrite, a replacement). Returns how
   * many it held before and no longer does (`null` with `exact` false when that is only a lower bound).
   */
  nowHolds(at: PresentAt): { lost: number; exact: boolean } {
    const lost = Math.max(0, this.#present - at.present)
    const exact = this.#exact && at.exact
    this.#present = at.present
    this.#exact = at.exact
    return { lost, exact }
  }
}
