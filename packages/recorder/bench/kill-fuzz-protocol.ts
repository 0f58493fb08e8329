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
  /**
   * Undefined: the recorder's default (64 MiB). Small values make big records the one record admitted past
   * the bound, send the records behind them through drain-sync, and stop long strings from being held.
   */
  readonly maxQueueBytes: number | undefined
  /** Share of records recorded with `{ handOver: true }` (serialized later, in slices). */
  readonly handOverShare: number
  /** Which child of its case this is: written in every record (`run`) so the checker can tell the children's records apart. */
  readonly run: number
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
  /**
   * `record()` refused a record with `QueueFullError`: past `maxQueueBytes` and no room could be made.
   * `ready`: whether ready() had resolved by then (before it, a resume may still be taking over the dead
   * holder's lock, and a lock not ours yet is a documented reason to refuse).
   */
  | { readonly t: 'refused'; readonly ready: boolean; readonly message: string }
  /** onError, or a rejected createRecorder/ready/flush/close. */
  | { readonly t: 'error'; readonly code: string; readonly message: string; readonly where: string }
  | { readonly t: 'closed' }

/**
 * What a child records: the shapes of `body` it draws from, with the share of records of each and how many
 * one child may record at most (the big ones are there to cross slices, writes and the queue bound, not to
 * fill disks or the child's heap).
 *
 * - `text`: one string of `bytes` (ASCII or multibyte), the sizes the fuzz always had.
 * - `structure`: an array of 1,000–5,000 small objects, or an object of that many keys: serializing it is
 *   what costs, not its bytes.
 * - `long-strings`: 16–24 strings of 64–96 Ki code units (some 256–300 Ki), ≥ 1 Mi together: held by
 *   reference and escaped as written while the queue has room. Some full of escapes and lone surrogates.
 * - `huge-string`: one string of 2–5 MB, or now and then 8–9 Mi code units (held even past an eighth of
 *   the bound).
 */
export const RECORD_SHAPES = [
  { name: 'tiny', shape: 'text', bytes: 8, share: 0.74, max: Infinity },
  { name: '1 KB', shape: 'text', bytes: 1024, share: 0.19, max: Infinity },
  { name: '100 KB', shape: 'text', bytes: 100 * 1024, share: 0.04, max: Infinity },
  { name: '3 MB', shape: 'text', bytes: 3 * 1024 * 1024, share: 0.002, max: 2 },
  { name: 'structure', shape: 'structure', bytes: 0, share: 0.022, max: 40 },
  { name: 'long strings', shape: 'long-strings', bytes: 0, share: 0.004, max: 3 },
  { name: 'huge string', shape: 'huge-string', bytes: 0, share: 0.002, max: 2 },
] as const

export type BodyShape = (typeof RECORD_SHAPES)[number]['shape']

/**
 * The data of every `fuzz` record. `sum` is {@link contentSum} of `[run, seq, shape, body]`, computed by
 * the child before `record()`: the checker recomputes it from the parsed line, without JSON.stringify, so
 * a serializer that wrote other content than it was given is caught whatever it wrote.
 */
export interface FuzzData {
  readonly run: number
  /** Index of the record among those the child accepted (title records count too): one more each time. */
  readonly seq: number
  readonly shape: BodyShape
  /** `handover` when recorded with `{ handOver: true }`. */
  readonly mode: 'copy' | 'handover'
  readonly sum: string
  readonly body: unknown
}

/**
 * A 32-bit FNV-1a digest (hex) of a JSON value's content: type tags, lengths, every UTF-16 code unit of
 * every string and key, numbers as their shortest text. Written by hand, not over JSON.stringify, so it
 * does not share a bug with the serializer it checks.
 */
export function contentSum(value: unknown): string {
  let hash = 0x811c9dc5
  const unit = (code: number): void => {
    hash = Math.imul(hash ^ code, 0x01000193)
  }
  const text = (string: string): void => {
    unit(string.length & 0xffff)
    unit(string.length >>> 16)
    for (let i = 0; i < string.length; i++) unit(string.charCodeAt(i))
  }
  const walk = (node: unknown): void => {
    if (node === null) {
      unit(0x6e)
    } else if (typeof node === 'string') {
      unit(0x73)
      text(node)
    } else if (typeof node === 'number') {
      unit(0x64)
      text(String(node))
    } else if (typeof node === 'boolean') {
      unit(node ? 0x74 : 0x66)
    } else if (Array.isArray(node)) {
      unit(0x61)
      text(String(node.length))
      for (const item of node as unknown[]) walk(item)
    } else if (typeof node === 'object') {
      const keys = Object.keys(node)
      unit(0x6f)
      text(String(keys.length))
      for (const key of keys) {
        text(key)
        walk((node as Record<string, unknown>)[key])
      }
    } else {
      unit(0x3f)
    }
  }
  walk(value)
  return (hash >>> 0).toString(16).padStart(8, '0')
}
