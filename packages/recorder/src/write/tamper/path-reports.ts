import type { PathCheck } from './path-outcome.js'
import { STILL_WAIT_MS } from './until-still.js'

/** What the path check found, said to the user (onError / warning) in one sentence each. */

export function replacedMessage(outcome: Extract<PathCheck, { kind: 'replaced' }>): string {
  const how = outcome.missing ? 'deleted or renamed' : 'replaced by another file'
  const carried =
    outcome.carried > 0
      ? `, starting with the ${outcome.carried} byte(s) of records written since it was last found there (none twice: the carry starts after the last record the file at the path already holds)`
      : ''
  return `the transcript was ${how} while open; writing continues in the file at the path${carried}`
}

export function grownMessage(outcome: Extract<PathCheck, { kind: 'grown' }>, lockWasLost: boolean): string {
  const forked = lockWasLost
    ? ' while the session lock was not provably ours: another writer took the session, and this recorder stops for good rather than fork it'
    : ''
  const where = outcome.interleaved ? ' (some of them before our last write, not after it)' : ''
  const glued = outcome.rewriting
    ? '; the record our write began with was glued to their unfinished line, and is written again on a line of its own'
    : ''
  return `the transcript grew from ${outcome.from} to ${outcome.to} bytes by writes that are not ours${where}${glued}${forked}`
}

/** Someone else wrote (grown, rewritten or overwritten) while the lock was not provably ours: final. */
export function forkMessage(outcome: PathCheck): string {
  if (outcome.kind === 'grown') return grownMessage(outcome, true)
  return `the transcript was ${outcome.kind} in place while the session lock was not provably ours: another writer took the session, and this recorder stops for good rather than fork it`
}

function lostCount(outcome: { readonly lost: number; readonly exact: boolean }): string {
  return `${outcome.exact ? '' : 'at least '}${outcome.lost} record(s) already written were lost with it`
}

export function overwrittenMessage(outcome: Extract<PathCheck, { kind: 'overwritten' }>): string {
  const raced =
    outcome.raced > 0
      ? `; our last write (${outcome.raced} byte(s), counted among those lost) was on its way as it was rewritten, and ends it`
      : ''
  return `the transcript was overwritten in place with a file that is not this session's (${outcome.reason}); ${lostCount(outcome)}${raced}; it is never written again, and the records not yet written stay queued until the path is free`
}

export function rewrittenMessage(outcome: Extract<PathCheck, { kind: 'rewritten' }>): string {
  return `the transcript was rewritten in place (${outcome.from} → ${outcome.to} bytes) with records of this session ending at ${outcome.lastUuid ?? 'no record'}; ${lostCount(outcome)}; writing continues at its end`
}

export function truncatedMessage(outcome: Extract<PathCheck, { kind: 'truncated' }>): string {
  return `the transcript was truncated from ${outcome.from} to ${outcome.to} bytes by someone else; ${lostCount(outcome)}; writing continues at its end`
}

export function changingMessage(): string {
  return `the transcript is being changed in place by someone else (it was still changing after ${STILL_WAIT_MS} ms of looks); nothing is written into it until it is still, and the records stay queued`
}
