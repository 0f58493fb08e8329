import type { FsyncMode } from '../src/index.js'

/** What one child of the kill fuzz does, passed to it as one JSON argument. */
export interface ChildPlan {
  readonly dir: string
  readonly sessionId: string
  readonly resume: boolean
  readonly fsync: FsyncMode
  readonly meta: boolean
  /** Undefined: the recorder's default (4 MiB). Small values split big records over several writes. */
  readonly maxWriteBytes: number | undefined
  /** Seeds the child's own generator: burst sizes, record sizes, flush points, pauses. */
  readonly seed: number
  /**
   * Milliseconds after `createRecorder` is entered at which a thread of the child itself sends SIGKILL to
   * the process, or null. The parent's kill lands a pipe read and a timer later; this one can land inside
   * createRecorder's synchronous lock takeover and first reads.
   */
  readonly selfKillMs: number | null
  /** Bytes of record data after which the child stops recording and only waits (to be killed). */
  readonly budgetBytes: number
  /** `close`: record the budget, close, exit 0 (the clean resume that ends a chain). `wait`: until killed. */
  readonly finish: 'close' | 'wait'
  /** A child nobody killed closes by itself after this long, so a lost kill cannot hang the run. */
  readonly maxRunMs: number
}

/** One JSON line a child prints to stdout. */
export type ChildEvent =
  /** Just before `createRecorder` is called. */
  | { readonly t: 'start'; readonly pid: number }
  /** `createRecorder` returned after `ms`. */
  | { readonly t: 'created'; readonly ms: number }
  /** `ready()` resolved `ms` after createRecorder was entered: the lock is ours and the file open. */
  | { readonly t: 'ready'; readonly ms: number }
  /**
   * A flush() (or close()) resolved to the watermark `uuid`/`count`. `recorded` records had been accepted
   * when it was called; `uuids` are those of them not named by an earlier ack line.
   */
  | {
      readonly t: 'ack'
      readonly uuid: string | null
      readonly count: number
      readonly recorded: number
      readonly uuids: readonly string[]
    }
  /** onError, or a rejected createRecorder/ready/flush/close. */
  | { readonly t: 'error'; readonly code: string; readonly message: string; readonly where: string }
  | { readonly t: 'closed' }

/** Record sizes the children draw from (bytes of payload), with the share of records of each. */
export const RECORD_SIZES = [
  { name: 'tiny', bytes: 8, share: 0.74 },
  { name: '1 KB', bytes: 1024, share: 0.2 },
  { name: '100 KB', bytes: 100 * 1024, share: 0.058 },
  { name: '3 MB', bytes: 3 * 1024 * 1024, share: 0.002 },
] as const

/** A child records at most this many 3 MB records: they are there to tear multi-write batches, not to fill disks. */
export const MAX_HUGE_RECORDS_PER_CHILD = 2
