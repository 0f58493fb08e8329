import { type RecorderError, RecorderErrorCode } from '../../errors.js'
import type { Custody } from './custody.js'
import type * as io from '../loop/io.js'
import {
  changingMessage,
  forkMessage,
  grownMessage,
  overwrittenMessage,
  replacedMessage,
  rewrittenMessage,
  truncatedMessage,
} from './path-reports.js'
import type { ErrorFactory, PathCheck } from './path-outcome.js'
import type { Loss } from '../session-errors.js'
import type { Transcript } from '../file/transcript.js'
import type { Watermarks } from '../loop/watermarks.js'

export interface PathCheckContext {
  readonly marks: Watermarks
  readonly custody: Custody
  readonly error: ErrorFactory
  /** Reports what the check found, with the records it cost (`error.lost`) when it cost any. */
  readonly report: (code: RecorderErrorCode, message: string, loss?: Loss) => void
  /**
   * What the file held of the chunk being written is gone: it is written again whole, on a line of its own
   * (a record being written in slices from its first character).
   */
  readonly restartChunk: () => void
  /** Someone's bytes came between the slices of a record being written in slices: it is written again whole. */
  readonly restartRecord: () => void
  /** Another writer took the session: the error that ends the recorder for good. */
  readonly final: (error: RecorderError) => void
}

/**
 * Checks the path and acts on what it found; true when it still names our file as we left it (write on),
 * false when something was handled (run the cycle again). Throws when the file cannot be written now.
 */
export function* checkPath(transcript: Transcript, c: PathCheckContext): io.Io<boolean> {
  const verdict = yield* actOnPathCheck(yield* transcript.check(), c)
  switch (verdict.next) {
    case 'write':
      return true
    case 'again':
      return false
    case 'refuse':
      throw verdict.error
    case 'final':
      c.final(verdict.error)
      throw verdict.error
  }
}

/** What the writer does next after a path check. */
export type CheckVerdict =
  /** The path names our file as we left it: write on. */
  | { readonly next: 'write' }
  /** Handled (reported, carried, counted): run the cycle again. */
  | { readonly next: 'again' }
  /** Not writable now (a file not ours at the path): this attempt fails, the records stay queued. */
  | { readonly next: 'refuse'; readonly error: RecorderError }
  /** Another writer took the session: the recorder stops for good. */
  | { readonly next: 'final'; readonly error: RecorderError }

/**
 * The path check's outcomes and what each leads to, in one table (the README's guarantee 7 says the same).
 * Whether bytes someone else wrote end the session is {@link Custody}'s to decide.
 */
export function* actOnPathCheck(outcome: PathCheck, c: PathCheckContext): io.Io<CheckVerdict> {
  switch (outcome.kind) {
    case 'same':
      c.custody.checkedClean()
      c.marks.verifiedAll()
      return { next: 'write' }
    case 'replaced':
      c.marks.replaced()
      c.report(RecorderErrorCode.TRANSCRIPT_REPLACED, replacedMessage(outcome), NOTHING_LOST)
      return { next: 'again' }
    case 'truncated':
      c.marks.cutTo(outcome.kept)
      c.restartChunk()
      c.report(RecorderErrorCode.TRANSCRIPT_TRUNCATED, truncatedMessage(outcome), lossOf(outcome))
      return { next: 'again' }
    case 'changing':
      return {
        next: 'refuse',
        error: c.error(RecorderErrorCode.TRANSCRIPT_CHANGED, changingMessage(), undefined),
      }
    case 'grown':
    case 'rewritten':
    case 'overwritten':
      break
  }
  // Someone else wrote into the file.
  if (yield* c.custody.someoneWrote()) {
    return {
      next: 'final',
      error: c.error(RecorderErrorCode.LOCK_COMPROMISED, forkMessage(outcome), undefined),
    }
  }
  switch (outcome.kind) {
    case 'grown':
      c.restartRecord()
      c.report(RecorderErrorCode.TRANSCRIPT_CHANGED, grownMessage(outcome, false), NOTHING_LOST)
      // Our records are still there, before (or among) the foreign bytes: the path holds them — once a record
      // glued to their line is written again.
      if (!outcome.rewriting) c.marks.verifiedAll()
      return { next: 'again' }
    case 'rewritten':
      c.marks.cutTo(outcome.kept)
      c.restartChunk()
      c.report(RecorderErrorCode.TRANSCRIPT_OVERWRITTEN, rewrittenMessage(outcome), lossOf(outcome))
      return { next: 'again' }
    case 'overwritten': {
      c.restartChunk()
      const message = overwrittenMessage(outcome)
      c.report(RecorderErrorCode.TRANSCRIPT_OVERWRITTEN, message, lossOf(outcome))
      return { next: 'refuse', error: c.error(RecorderErrorCode.FOREIGN_FILE, message, undefined) }
    }
  }
}

const NOTHING_LOST: Loss = { lost: { records: 0, exact: true } }

function lossOf(outcome: { readonly lost: number; readonly exact: boolean }): Loss {
  return { lost: { records: outcome.lost, exact: outcome.exact } }
}
