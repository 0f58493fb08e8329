import type { RecordQueue } from '../queue/record-queue.js'

/**
 * What one run of the write cycle is for. The cycle is the same for every caller; only its goal differs:
 * the background loop writes everything and confirms what flush() waits for, `flushSync()` confirms every
 * record now, the overflow policy only makes room, the exit drain writes until its deadline.
 */
export interface Goal {
  /** Keep writing queued records while this holds (a record begun is always finished). */
  readonly writeMore: () => boolean
  /** Records that must be written, found at the path, and (with `sync`) synced before the run ends. */
  readonly confirm: () => number
  /** Confirming includes an fdatasync (when the recorder's `fsync` option syncs at all). */
  readonly sync: boolean
  /** Open the transcript even with nothing to write (the background loop, so ready() resolves early). */
  readonly open: boolean
}

/** The background loop: everything queued, and what the flush() waiters wait for. */
export function backgroundGoal(waitedFor: () => number, open: boolean): Goal {
  return { writeMore: () => true, confirm: waitedFor, sync: true, open }
}

/** `flushSync()`: every record accepted so far, written, at the path and synced, now. */
export function flushSyncGoal(recorded: number): Goal {
  return { writeMore: () => true, confirm: () => recorded, sync: true, open: false }
}

/**
 * The overflow policy: write until a record of `own` code units holding `held` fits under half the bound
 * (`low`) and the held strings' bound, or can be the one record allowed past the bound; confirm nothing.
 */
export function roomGoal(queue: RecordQueue, own: number, held: number, low: number): Goal {
  return {
    writeMore: () => queue.admits(own, held, low) === null,
    confirm: () => 0,
    sync: false,
    open: false,
  }
}

/** The exit drain: write until `deadline`, confirm at the path what was written; sync only if every batch is. */
export function exitGoal(deadline: number, recorded: number, syncEveryBatch: boolean): Goal {
  return {
    writeMore: () => Date.now() < deadline,
    confirm: () => recorded,
    sync: syncEveryBatch,
    open: false,
  }
}
