import type { RecorderFs } from '../../util/recorder-fs.js'
import { sleepSync } from '../../util/sleep-sync.js'

// The exit drain waits at most this long for a write already handed to the threadpool to land, so it can
// continue exactly after it instead of writing the same bytes twice.
export const IN_FLIGHT_SETTLE_MS = 250

/** Why a drain outside the exit listener refuses to take over: it would write a write's bytes twice. */
export const STALLED_WRITE_MESSAGE = `a write handed to the threadpool did not land within ${IN_FLIGHT_SETTLE_MS} ms, and writing its bytes again would duplicate them`
// ...and at most this long for one that has visibly started (part of it is in the file) to finish.
const STARTED_WRITE_MAX_MS = 5000

/** A write handed to the threadpool and not yet called back. */
export interface InFlight {
  /** Transcript size when the call was issued. */
  readonly base: number
  readonly length: number
  /** Accounts for bytes the exit drain found landed on its behalf. */
  readonly landed: (bytes: number) => void
}

/**
 * A write handed to the threadpool cannot be cancelled, and its callback will never run if the process is
 * exiting. Its effect is visible in the file size, though (we are the only writer: the lock): wait,
 * bounded, until the size shows it landed, then continue right after it. If it has not started by the
 * deadline it is written here; should the threadpool still run it before the process ends, those bytes
 * would appear twice (the reader reports duplicate uuids) — lost records would be worse.
 *
 * Returns how many of its bytes are in the file (at most its length). Without `wait` it looks once. Throws
 * what `fstatSync` throws.
 */
export function landedSync(
  fs: Pick<RecorderFs, 'fstatSync'>,
  fd: number,
  inFlight: InFlight,
  wait: boolean,
  exiting: boolean,
): number {
  const start = Date.now()
  const deadline = wait ? start + IN_FLIGHT_SETTLE_MS : 0
  for (;;) {
    const landed = Math.min(Math.max(fs.fstatSync(fd).size - inFlight.base, 0), inFlight.length)
    if (landed >= inFlight.length) return landed
    const now = Date.now()
    // At exit, a write that has started (part of it is in the file) is being finished by the kernel:
    // writing its rest here too would append that rest twice, a torn fragment mid-transcript. Wait longer
    // for it, bounded. (Other drains give up on any unfinished write, so they need not wait.)
    const started = landed > 0 && exiting && now < start + STARTED_WRITE_MAX_MS
    if (now >= deadline && !started) return landed
    sleepSync(1)
  }
}

/** {@link landedSync}, or why it cannot be told (an fstat that failed): then nothing is taken over. */
export function landedOrWhyNot(
  fs: Pick<RecorderFs, 'fstatSync'>,
  fd: number,
  inFlight: InFlight,
  wait: boolean,
  exiting: boolean,
): number | string {
  try {
    return landedSync(fs, fd, inFlight, wait, exiting)
  } catch {
    return 'the transcript could not be inspected to tell whether the write in flight had landed'
  }
}
