import type { SessionRecord } from '../record-format.js'
import type { ReadProblem } from './problem.js'

/**
 * The problems only the whole file reveals: reused uuids, parents that are not in the file, and parent
 * links that loop. `lines[i]` is the line number of `records[i]`.
 */
export function checkLinks(records: readonly SessionRecord[], lines: readonly number[]): ReadProblem[] {
  const problems: ReadProblem[] = []
  const firstIndex = indexByUuid(records)
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    const first = firstIndex.get(record.uuid)!
    if (first !== i) {
      problems.push({
        line: lines[i]!,
        kind: 'duplicate-uuid',
        detail: `uuid ${JSON.stringify(record.uuid)} was already used on line ${lines[first]!}; the first one is kept for parent links`,
      })
    }
    if (record.parentUuid !== null && !firstIndex.has(record.parentUuid)) {
      problems.push({
        line: lines[i]!,
        kind: 'orphan',
        detail: `parent ${JSON.stringify(record.parentUuid)} of record ${JSON.stringify(record.uuid)} is not in the file`,
      })
    }
  }
  problems.push(...findCycles(records, lines, firstIndex))
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

const UNSEEN = 0
const ON_PATH = 1
const DONE = 2

function findCycles(
  records: readonly SessionRecord[],
  lines: readonly number[],
  firstIndex: ReadonlyMap<string, number>,
): ReadProblem[] {
  const problems: ReadProblem[] = []
  const state = new Uint8Array(records.length)
  const path: number[] = []
  for (let start = 0; start < records.length; start++) {
    if (state[start] !== UNSEEN || firstIndex.get(records[start]!.uuid) !== start) continue
    // Iterative walk up the parent links; a record met again while still on the path closes a cycle.
    let at: number | undefined = start
    while (at !== undefined && state[at] === UNSEEN) {
      state[at] = ON_PATH
      path.push(at)
      const parent: string | null = records[at]!.parentUuid
      at = parent === null ? undefined : firstIndex.get(parent)
    }
    if (at !== undefined && state[at] === ON_PATH) {
      const members = path.slice(path.indexOf(at))
      const firstInFile = Math.min(...members)
      const uuids = [...members, at].map((i) => JSON.stringify(records[i]!.uuid)).join(' → ')
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
