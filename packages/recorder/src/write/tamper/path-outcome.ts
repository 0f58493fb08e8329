import type { RecorderError, RecorderErrorCode } from '../../errors.js'
import type { Loss } from '../session-errors.js'

/** What a path check of the transcript can find, and what each finding carries (see transcript.ts). */

export type ErrorFactory = (
  code: RecorderErrorCode,
  what: string,
  cause: unknown,
  loss?: Loss,
) => RecorderError

/** How many records of ours a change took from the file (`exact` false: at least that many). */
export interface Lost {
  readonly lost: number
  readonly exact: boolean
  /** Records this recorder had written once the last record left was (for the watermarks). */
  readonly kept: number
}

/** What the path check found. */
export type PathCheck =
  | { readonly kind: 'same' }
  /** Deleted, renamed away, or replaced by another file (a copy, an editor's save): the descriptor was let go. */
  | { readonly kind: 'replaced'; readonly missing: boolean; readonly carried: number }
  /** Same file, shorter than our writes left it: someone truncated it. */
  | ({ readonly kind: 'truncated'; readonly from: number; readonly to: number } & Lost)
  /**
   * Same file, longer than our writes left it, our bytes in place: someone else appended (the lock was
   * bypassed, or lost). `interleaved`: some of their bytes came before our last write (an append racing it), not only after it.
   */
  | {
      readonly kind: 'grown'
      readonly from: number
      readonly to: number
      readonly interleaved: boolean
      /** Our first record after their bytes was glued to their line: it is written again (a carry). */
      readonly rewriting: boolean
    }
  /**
   * Same file, rewritten in place with this session's records (an older copy put back with `cat`): writing
   * goes on at its end; what we wrote after its last record (`lastUuid`) went with the old bytes.
   */
  | ({
      readonly kind: 'rewritten'
      readonly from: number
      readonly to: number
      readonly lastUuid: string | null
    } & Lost)
  /**
   * Same file, overwritten in place with bytes that are not this session's: it is never written again (the
   * descriptor was let go); every record we wrote into it went with the old bytes.
   */
  | ({
      readonly kind: 'overwritten'
      readonly reason: string
      /** Bytes of our last write that ended up in their file (it raced their rewrite), or 0. */
      readonly raced: number
    } & Omit<Lost, 'kept'>)
  /** Same file, still being changed by someone else after every look: nothing is decided or written now. */
  | { readonly kind: 'changing' }
