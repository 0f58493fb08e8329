import type { ReadProblem } from '../format/problem.js'

/** A record whose parent lives in an earlier session file (other agents' transcripts): not damage. */
export interface EarlierSessionLink {
  readonly line: number
  readonly uuid: string
  readonly parentUuid: string
  readonly detail: string
}

/** `parentOf` value of a root (`parentUuid: null`). */
export const ROOT = -1
/** `parentOf` value of a record whose parent is not in the file (known once `finish()` ran). */
export const MISSING = -2
/** How many uuids of a loop a `cycle` problem lists. */
const CYCLE_UUIDS_SHOWN = 8
const INITIAL_CAPACITY = 1024

/**
 * The parent links of a transcript, built one record at a time, so link checks (`orphan`,
 * `duplicate-uuid`, `cycle`) and branch walks need no record kept in memory: per record it holds one Map
 * entry (its uuid) and a few bytes of typed arrays, never the record. Parents that come later in the file
 * (not this writer's order, but possible in other files) are resolved when they arrive.
 */
export class LinkIndex {
  // uuid → index of the first record with it (a duplicate never shadows the original).
  readonly #first = new Map<string, number>()
  // Parent index per record: ROOT, MISSING, or the index; a parent not seen yet is MISSING until it comes.
  #parent = new Int32Array(INITIAL_CAPACITY)
  #line = new Int32Array(INITIAL_CAPACITY)
  // 1 for a record whose uuid an earlier record already used.
  #duplicate = new Uint8Array(INITIAL_CAPACITY)
  // Parent uuids not seen yet → the records waiting for them.
  readonly #waiting = new Map<string, Array<readonly [index: number, uuid: string]>>()
  #count = 0
  // A loop needs at least one link that points forward; without one the cycle search is skipped.
  #pointsForward = false
  readonly #report: (problem: ReadProblem) => void
  readonly #onEarlierSession: ((link: EarlierSessionLink) => void) | undefined
  // Index of the first record with a parent link; -1 before one is added.
  #firstLinked = -1

  /**
   * `report` receives `duplicate-uuid` problems as they are found, and the rest from `finish()`.
   * `onEarlierSession`, for other agents' transcripts: the first linked record of the file whose parent
   * is missing continues a session kept in an earlier file (Claude Code starts a new file when a session
   * is resumed or continued, and links its first record to the last one of the old file). It is reported
   * there, not as an orphan; every other missing parent is still an orphan.
   */
  constructor(report: (problem: ReadProblem) => void, onEarlierSession?: (link: EarlierSessionLink) => void) {
    this.#report = report
    this.#onEarlierSession = onEarlierSession
  }

  get count(): number {
    return this.#count
  }

  /** Adds the next record in file order; returns its index. */
  add(uuid: string, parentUuid: string | null, line: number): number {
    const i = this.#count++
    if (i === this.#parent.length) this.#grow()
    this.#line[i] = line
    const first = this.#first.get(uuid)
    if (first === undefined) {
      this.#first.set(uuid, i)
      const children = this.#waiting.get(uuid)
      if (children !== undefined) {
        this.#waiting.delete(uuid)
        for (const [child] of children) this.#parent[child] = i
        this.#pointsForward = true
      }
    } else {
      this.#duplicate[i] = 1
      this.#report({
        line,
        kind: 'duplicate-uuid',
        detail: `uuid ${JSON.stringify(uuid)} was already used on line ${this.#line[first]!}; the first one is kept for parent links`,
      })
    }
    if (parentUuid === null) this.#parent[i] = ROOT
    else {
      if (this.#firstLinked === -1) this.#firstLinked = i
      const at = this.#first.get(parentUuid)
      if (at !== undefined && at !== i) this.#parent[i] = at
      else {
        this.#parent[i] = at === i ? i : MISSING
        if (at === i) this.#pointsForward = true
        else {
          const waiting = this.#waiting.get(parentUuid)
          if (waiting === undefined) this.#waiting.set(parentUuid, [[i, uuid]])
          else waiting.push([i, uuid])
        }
      }
    }
    return i
  }

  /** Reports the orphans (parents never seen) and the loops. Call once, after the last `add`. */
  finish(): void {
    const orphans: Array<readonly [index: number, uuid: string, parentUuid: string]> = []
    for (const [parentUuid, children] of this.#waiting) {
      for (const [child, uuid] of children) orphans.push([child, uuid, parentUuid])
    }
    orphans.sort((a, b) => a[0] - b[0])
    for (const [child, uuid, parentUuid] of orphans) {
      if (child === this.#firstLinked && this.#onEarlierSession !== undefined) {
        this.#onEarlierSession({
          line: this.#line[child]!,
          uuid,
          parentUuid,
          detail: `parent ${JSON.stringify(parentUuid)} of record ${JSON.stringify(uuid)} is not in this file: the session continues one kept in an earlier session file`,
        })
        continue
      }
      this.#report({
        line: this.#line[child]!,
        kind: 'orphan',
        detail: `parent ${JSON.stringify(parentUuid)} of record ${JSON.stringify(uuid)} is not in the file`,
      })
    }
    if (this.#pointsForward) this.#findCycles()
  }

  /**
   * Drops the uuid map (the bulk of the index) once only parent indices are needed any more: `indexOf`
   * answers nothing afterwards, `parentOf`, `lineOf` and `isDuplicate` still work.
   */
  releaseUuids(): void {
    this.#first.clear()
    this.#waiting.clear()
  }

  indexOf(uuid: string): number | undefined {
    return this.#first.get(uuid)
  }

  /** Parent index of record `i`, or ROOT / MISSING. */
  parentOf(i: number): number {
    return this.#parent[i]!
  }

  lineOf(i: number): number {
    return this.#line[i]!
  }

  isDuplicate(i: number): boolean {
    return this.#duplicate[i] === 1
  }

  #grow(): void {
    const size = this.#parent.length * 2
    const parent = new Int32Array(size)
    parent.set(this.#parent)
    this.#parent = parent
    const line = new Int32Array(size)
    line.set(this.#line)
    this.#line = line
    const duplicate = new Uint8Array(size)
    duplicate.set(this.#duplicate)
    this.#duplicate = duplicate
  }

  #findCycles(): void {
    const UNSEEN = 0
    const ON_PATH = 1
    const DONE = 2
    const state = new Uint8Array(this.#count)
    const path: number[] = []
    const loops: number[][] = []
    for (let start = 0; start < this.#count; start++) {
      if (state[start] !== UNSEEN || this.#duplicate[start] === 1) continue
      // Iterative walk up the parent links; a record met again while still on the path closes a loop.
      let at = start
      while (at >= 0 && state[at] === UNSEEN) {
        state[at] = ON_PATH
        path.push(at)
        at = this.#parent[at]!
      }
      if (at >= 0 && state[at] === ON_PATH) loops.push(path.slice(path.indexOf(at)))
      for (const i of path) state[i] = DONE
      path.length = 0
    }
    if (loops.length === 0) return
    // Names only for the records a detail shows: one pass over the uuids, and only when there is a loop.
    const wanted = new Map<number, string>()
    for (const members of loops) for (const i of members.slice(0, CYCLE_UUIDS_SHOWN)) wanted.set(i, '')
    for (const [uuid, i] of this.#first) if (wanted.has(i)) wanted.set(i, uuid)
    for (const members of loops) {
      // A loop can hold the whole file: no spread into Math.min, and the detail names only its start.
      let firstInFile = members[0]!
      for (const i of members) if (i < firstInFile) firstInFile = i
      const shown = members.slice(0, CYCLE_UUIDS_SHOWN).map((i) => JSON.stringify(wanted.get(i)))
      const uuids =
        members.length > CYCLE_UUIDS_SHOWN
          ? `${shown.join(' → ')} → … (${members.length - CYCLE_UUIDS_SHOWN} more)`
          : [...shown, shown[0]!].join(' → ')
      this.#report({
        line: this.#line[firstInFile]!,
        kind: 'cycle',
        detail: `parentUuid links loop: ${uuids}; no root can be reached from these ${members.length} record(s)`,
      })
    }
  }
}
