import { RecorderArgumentError } from '../errors.js'

/**
 * Options nobody reads are a silent bug: a misspelt `fsycn: 'batch'` or sonic-boom's `sync: true` would be
 * accepted and do nothing. Every key of `createRecorder`'s options must be known; an unknown one is a
 * `TypeError` that names it and suggests the nearest known key, or our equivalent of a well-known name from
 * the packages people come from (sonic-boom and pino's destination options).
 */

const EQUIVALENTS: Readonly<Record<string, string>> = {
  sync: 'records are always written in the background; call `flushSync()` where a synchronous write is needed',
  minLength:
    'records are group-committed on their own (everything queued while a write is in flight goes in the next one)',
  maxLength: 'use `maxQueueChars` (with `overflow`)',
  maxWrite: 'use `maxWriteBytes`',
  dest: 'use `dir` and `sessionId` (the transcript is `<dir>/<sessionId>.jsonl`)',
  file: 'use `dir` and `sessionId` (the transcript is `<dir>/<sessionId>.jsonl`)',
  path: 'use `dir` and `sessionId` (the transcript is `<dir>/<sessionId>.jsonl`)',
  fd: 'the recorder opens its transcript itself; use `dir` and `sessionId`',
  append: 'use `resume: true` to continue an existing transcript',
  mkdir: 'the directory is always created (mode 0o700)',
  fsyncInterval: "use `fsync: 'batch'` or `fsync: 'flush'`",
  retryEAGAIN: 'transient errors (EAGAIN, EBUSY, EINTR) are always retried',
}

/**
 * Throws a TypeError for the first key of `options` that is not in `known` (nor in `seams`). `seams` are
 * `@internal` test seams (an injected `fs`): accepted, but never named in the message or suggested, so an
 * error never advertises an option the documentation does not have.
 */
export function rejectUnknownOptions(
  options: unknown,
  known: readonly string[],
  what: string,
  seams: readonly string[] = [],
): void {
  // A missing bag is the defaults; a non-object one is each caller's own type error to report.
  if (options === null || typeof options !== 'object') return
  for (const key of Object.keys(options)) {
    if (known.includes(key) || seams.includes(key)) continue
    const equivalent = EQUIVALENTS[key]
    const nearest = nearestKey(key, known)
    const hint =
      equivalent !== undefined
        ? ` (${equivalent})`
        : nearest !== undefined
          ? ` Did you mean \`${nearest}\`?`
          : ''
    throw new RecorderArgumentError(
      `Unknown option \`${key}\` for ${what}.${hint} Known options: ${known.join(', ')}`,
    )
  }
}

/** The known key closest to `key` by edit distance, if it is close enough to be a typo. */
function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution)
    }
    previous = current
  }
  return previous[b.length]!
}
