import { MISSING, ROOT, type LinkIndex } from '@sessiontape/recorder/internal'

/** The active branch as record indices (root → leaf), and where the walk had to stop. */
export interface IndexBranch {
  /** Record indices, root first. */
  readonly indices: Int32Array
  /** Why the walk stopped before a root: the parent of `indices[0]` is missing, or the links loop. */
  readonly stop: 'root' | 'missing-parent' | 'cycle'
  /** True when `indices` is in file order (this writer's order), so a second streaming pass can print it. */
  readonly inFileOrder: boolean
}

/**
 * Walks parent links back from record `leaf` over a {@link LinkIndex}: the same walk as `activeBranch`,
 * without holding records (iterative, with a visited bitmap, so a loop or a deep chain cannot hang it).
 */
export function indexBranch(links: LinkIndex, leaf: number): IndexBranch {
  const visited = new Uint8Array(links.count)
  const path: number[] = []
  let stop: IndexBranch['stop'] = 'root'
  let at = leaf
  for (;;) {
    visited[at] = 1
    path.push(at)
    const parent = links.parentOf(at)
    if (parent === ROOT) break
    if (parent === MISSING) {
      stop = 'missing-parent'
      break
    }
    if (visited[parent] === 1) {
      stop = 'cycle'
      break
    }
    at = parent
  }
  const indices = Int32Array.from(path).reverse()
  let inFileOrder = true
  for (let i = 1; i < indices.length; i++) if (indices[i]! <= indices[i - 1]!) inFileOrder = false
  return { indices, stop, inFileOrder }
}
