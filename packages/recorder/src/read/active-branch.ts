import type { SessionRecord } from '../format/record-format.js'
import { indexByUuid } from './check-links.js'
import { describeValue } from '../util/describe-value.js'
import { defaultLeafIndex, linkParentOf } from './formats/record-links.js'

/** Where the walk from the leaf had to stop before reaching a root. */
export interface BranchGap {
  /** `missing-parent`: the parent is not among the records. `cycle`: the walk came back to a record it had visited. */
  readonly kind: 'missing-parent' | 'cycle'
  /** The record whose parent link could not be followed (the first record of the returned branch). */
  readonly childUuid: string
  readonly parentUuid: string
  readonly detail: string
}

export interface ActiveBranch {
  /** Root → leaf. When `gaps` is not empty, `records[0]` is not a root: history before it is lost. */
  readonly records: SessionRecord[]
  /** Empty when the walk reached a root; otherwise says exactly where and why it stopped. */
  readonly gaps: BranchGap[]
  readonly leafUuid: string | null
}

/**
 * The conversation that ends at `leafUuid` (default: the last record that is neither our metadata —
 * `title`, `recovered` — nor a sidechain, `isSidechain: true`): walks `parentUuid` links back from the
 * leaf with a cycle guard. Claude Code's `compact_boundary` (`parentUuid: null`) is crossed through its
 * `logicalParentUuid`, so the branch reaches back past a compaction. A missing parent ends the walk with
 * an explicit gap, never a silent cut. Duplicated uuids resolve to their first record.
 */
export function activeBranch(records: readonly SessionRecord[], leafUuid?: string): ActiveBranch {
  const given: unknown = records
  if (!Array.isArray(given)) {
    throw new TypeError(
      `Expected \`records\` to be an array, got \`${describeValue(given)}\` (${typeof given})`,
    )
  }
  const index = indexByUuid(records)
  let leaf: SessionRecord | undefined
  if (leafUuid === undefined) leaf = records[defaultLeafIndex(records)]
  else {
    const at = typeof leafUuid === 'string' ? index.get(leafUuid) : undefined
    if (at === undefined) {
      throw new TypeError(
        `Expected \`leafUuid\` to be the uuid of one of the records, got \`${describeValue(leafUuid)}\` (${typeof leafUuid})`,
      )
    }
    leaf = records[at]
  }
  if (leaf === undefined) return { records: [], gaps: [], leafUuid: null }
  const branch: SessionRecord[] = []
  const gaps: BranchGap[] = []
  const visited = new Set<string>()
  let current: SessionRecord = leaf
  for (;;) {
    visited.add(current.uuid)
    branch.push(current)
    const parentUuid = linkParentOf(current)
    if (parentUuid === null) break
    const parentAt = index.get(parentUuid)
    if (parentAt === undefined) {
      gaps.push({
        kind: 'missing-parent',
        childUuid: current.uuid,
        parentUuid,
        detail: `history before ${JSON.stringify(current.uuid)} is lost: its parent ${JSON.stringify(parentUuid)} is not in the transcript`,
      })
      break
    }
    const parent = records[parentAt]!
    if (visited.has(parent.uuid)) {
      gaps.push({
        kind: 'cycle',
        childUuid: current.uuid,
        parentUuid,
        detail: `parent links loop back to ${JSON.stringify(parentUuid)}; the walk stopped there`,
      })
      break
    }
    current = parent
  }
  return { records: branch.reverse(), gaps, leafUuid: leaf.uuid }
}
