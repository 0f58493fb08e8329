import type { SessionRecord } from '../record-format.js'
import type { ReadProblem } from './problem.js'

/** `parentAt` value of a root (`parentUuid: null`). */
const ROOT = -1
/** `parentAt` value of a record whose parent is not in the file. */
const MISSING = -2

/**
 * The problems only the whole file reveals: reused uuids, parents that are not in the file, and parent
 * links that loop. `lines[i]` is the line number of `records[i]`.
 *
 * This runs once per `readSession`, on every record, so it does one Map insert per uuid and one lookup per
 * parent and nothing more: parent links are resolved once into an index array, and the cycle search is
 * skipped altogether when every parent comes earlier in the file (the writer's order), because a loop
 * needs at least one link that points forward.
 */
export function checkLinks(records: readonly SessionRecord[], lines: readonly number[]): ReadProblem[] {
  const problems: ReadProblem[] = []
  const count = records.length
  const firstIndex = new Map<string, number>()
  // For each duplicate, the index of the record that first used its uuid; -1 for a first use.
  const firstOf = new Int32Array(count).fill(-1)
  let duplicates = false
  for (let i = 0; i < count; i++) {
    const uuid = records[i]!.uuid
    const first = firstIndex.get(uuid)
    if (first === undefined) firstIndex.set(uuid, i)
    else {
      firstOf[i] = first
      duplicates = true
    }
  }
  const parentAt = new Int32Array(count)
  let pointsForward = false
  for (let i = 0; i < count; i++) {
    const record = records[i]!
    if (duplicates && firstOf[i]! !== -1) {
      problems.push({
        line: lines[i]!,
        kind: 'duplicate-uuid',
        detail: `uuid ${JSON.stringify(record.uuid)} was already used on line ${lines[firstOf[i]!]!}; the first one is kept for parent links`,
      })
    }
    const parentUuid = record.parentUuid
    if (parentUuid === null) {
      parentAt[i] = ROOT
      continue
    }
    // The writer's chain: the parent is almost always the record just before, which spares a Map lookup.
    const at =
      i > 0 && firstOf[i - 1] === -1 && records[i - 1]!.uuid === parentUuid
        ? i - 1
        : firstIndex.get(parentUuid)
    if (at === undefined) {
      parentAt[i] = MISSING
      problems.push({
        line: lines[i]!,
        kind: 'orphan',
        detail: `parent ${JSON.stringify(parentUuid)} of record ${JSON.stringify(record.uuid)} is not in the file`,
      })
    } else {
      parentAt[i] = at
      if (at >= i) pointsForward = true
    }
  }
  if (pointsForward) problems.push(...findCycles(records, lines, parentAt, firstOf))
  return problems
}

/** uuid → index of its first record (duplicates never shadow the original). */
export function indexByUuid(records: readonly SessionRecord[]): Map<string, number> {
  const index = new Map<string, number>()
  for (let i = 0; i < records.length; i++) {
    const uuid = records[i]!.uuid
    if (!index.has(uuid)) index.set(uuid, i)
  }
  return index
}

/** How many uuids of a loop a `cycle` problem lists. */
const CYCLE_UUIDS_SHOWN = 8

const UNSEEN = 0
const ON_PATH = 1
const DONE = 2

function findCycles(
  records: readonly SessionRecord[],
  lines: readonly number[],
  parentAt: Int32Array,
  firstOf: Int32Array,
): ReadProblem[] {
  const problems: ReadProblem[] = []
  const state = new Uint8Array(records.length)
  const path: number[] = []
  for (let start = 0; start < records.length; start++) {
    if (state[start] !== UNSEEN || firstOf[start] !== -1) continue
    // Iterative walk up the parent links; a record met again while still on the path closes a cycle.
    let at = start
    while (at >= 0 && state[at] === UNSEEN) {
      state[at] = ON_PATH
      path.push(at)
      at = parentAt[at]!
    }
    if (at >= 0 && state[at] === ON_PATH) {
      const members = path.slice(path.indexOf(at))
      // A loop can hold the whole file: no spread into Math.min, and the detail names only its start.
      let firstInFile = at
      for (const i of members) if (i < firstInFile) firstInFile = i
      const shown = members.slice(0, CYCLE_UUIDS_SHOWN).map((i) => JSON.stringify(records[i]!.uuid))
      const uuids =
        members.length > CYCLE_UUIDS_SHOWN
          ? `${shown.join(' → ')} → … (${members.length - CYCLE_UUIDS_SHOWN} more)`
          : [...shown, JSON.stringify(records[at]!.uuid)].join(' → ')
      problems.push({
        line: lines[firstInFile]!,
        kind: 'cycle',
        detail: `parentUuid links loop: ${uuids}; no root can be reached from these ${members.length} record(s)`,
      })
    }
    for (const i of path) state[i] = DONE
    path.length = 0
  }
  return problems
}
