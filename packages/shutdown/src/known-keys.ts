import { ShutdownArgumentError } from './errors.js'
/**
 * Option names of the libraries people move here from, with what each is called in this package, so a
 * `{ wait: 300 }` (exit-hook) or `{ delay: 500 }` (close-with-grace) is answered instead of ignored.
 */
export type ForeignNames = Readonly<Record<string, string>>

const EXIT_HOOK_WAIT = "exit-hook's `wait` is `timeoutMs` here (milliseconds this cleanup may take)"
const CLOSE_WITH_GRACE_DELAY =
  "close-with-grace's `delay` is `timeoutMs` here (the bound of the whole exit, in milliseconds)"

/** Foreign names per options bag. */
export const FOREIGN = {
  createShutdown: {
    delay: CLOSE_WITH_GRACE_DELAY,
    logger: "close-with-grace's `logger` is `onReport` here (it receives the whole report)",
    skip: "close-with-grace's `skip` is `installSignalHandlers({ signals })` here (list the signals to handle)",
    onSecondError:
      "close-with-grace's `onSecondError` has no equivalent: a later error is recorded in `report.laterReasons`",
    wait: "exit-hook's `wait` is `cleanupTimeoutMs` here (the default bound of each cleanup, in milliseconds)",
  },
  registerCleanup: {
    wait: EXIT_HOOK_WAIT,
    minimumWait: EXIT_HOOK_WAIT,
    alwaysLast: "signal-exit's `alwaysLast` is `phase: 'last'` here",
  },
  exit: {
    delay: CLOSE_WITH_GRACE_DELAY,
    wait: "exit-hook's `wait` is `timeoutMs` here (the bound of the whole exit, in milliseconds)",
  },
  signals: { skip: "close-with-grace's `skip` is `signals` here (list the signals to handle)" },
} as const satisfies Record<string, ForeignNames>

/**
 * Throws a `TypeError` when `options` has an own key outside `known`: an option nobody reads changes
 * nothing without a word (a bound that is never applied, a typo in a name). Names the key and the nearest
 * known one, or what a well-known foreign name is called here.
 */
export function assertKnownKeys(
  where: string,
  options: object,
  known: readonly string[],
  foreign: ForeignNames = {},
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue
    const hint = Object.hasOwn(foreign, key) ? foreign[key] : nearestHint(key, known)
    throw new ShutdownArgumentError(`Unknown option \`${key}\` in ${where}: ${hint}`)
  }
}

function nearestHint(key: string, known: readonly string[]): string {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  // Beyond a third of the name, a "did you mean" is noise rather than help.
  if (best === undefined || bestDistance > Math.max(2, Math.floor(key.length / 3))) {
    return `known options are ${known.map((k) => `\`${k}\``).join(', ')}`
  }
  return `did you mean \`${best}\`?`
}

/** Levenshtein distance; option names are short, so the O(n·m) table is nothing. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, substitution))
    }
    previous = row
  }
  return previous[b.length] as number
}
