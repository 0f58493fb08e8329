import type { PathCheck } from './transcript.js'

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
  const forked = lockWasLost ? ' while the lock was not held; another writer may have forked the session' : ''
  return `the transcript grew from ${outcome.from} to ${outcome.to} bytes by writes that are not ours${forked}`
}

export function truncatedMessage(
  outcome: Extract<PathCheck, { kind: 'truncated' }>,
  lost: number | null,
  exact: boolean,
): string {
  const count =
    lost === null
      ? 'records already written were lost with it (how many cannot be told: the cut reaches before the writes this recorder remembers)'
      : `${exact ? '' : 'at least '}${lost} record(s) already written were lost with it`
  return `the transcript was truncated from ${outcome.from} to ${outcome.to} bytes by someone else; ${count}; writing continues at its end`
}
