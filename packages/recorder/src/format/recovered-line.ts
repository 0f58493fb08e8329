import type { ProblemKind } from './problem.js'

/**
 * A damaged line that a later `recovered` record of the same file names: the torn bytes of a crash, which
 * a resumed recorder left in place (append-only) and explained. It is not damage: readers report it here,
 * apart from `problems`, and `sessiontape verify` exits 0 on it.
 */
export interface RecoveredTornLine {
  /** 1-based line number. */
  readonly line: number
  /** Byte offset where the line starts. */
  readonly offset: number
  /** Bytes in the line, without its newline. */
  readonly length: number
  /** What the line would have been reported as without the `recovered` record. */
  readonly kinds: readonly ProblemKind[]
  /** uuid of the `recovered` record whose `tornOffset`/`tornLength` range holds the line. */
  readonly recoveredBy: string
  readonly detail: string
}
