import { InvalidRecordError, RecordTooLargeError } from '../errors.js'
import type { RecordQueue } from './record-queue.js'
import {
  bytesOverLimit,
  handedOverLine,
  type SerializedRecord,
  unserializableLine,
} from './serialize-record.js'
import type { IncrementalJson } from './incremental-json.js'

/**
 * Strings at least this long inside data handed over are held by reference and escaped when written, in
 * slices (lazy-json-text.ts); shorter ones are escaped by the serializer's slice that meets them, which
 * costs at most ~0.7 ms for 256 Ki code units of text with escapes and non-ASCII on the reference VM.
 */
export const HANDED_OVER_BIG_STRING_CHARS = 256 * 1024
// Work per event-loop task. A task may overrun it by one native call of a small container (≤ ~0.1 ms) or
// by reading one object's keys (`Object.keys` of 10⁵ keys: ~15 ms here, the one step that cannot be cut).
const SLICE_MS = 1
// While a synchronous drain serializes (flushSync, the overflow policy, the exit drain), it looks at its
// goal (the exit deadline) this often.
const SYNC_SLICE_MS = 10
/** Records handed over and not serialized yet, at most: past it, record() serializes at once instead. */
export const MAX_HANDED_OVER_PENDING = 16

/** A record handed over: its placeholder in the queue and its data's serializer. */
export interface HandedOver {
  readonly uuid: string
  readonly type: string
  readonly placeholder: SerializedRecord
  readonly json: IncrementalJson
}

export interface HandOverSettings {
  readonly queue: RecordQueue
  readonly maxQueueChars: number
  readonly maxRecordBytes: number | undefined
  /** A placeholder was replaced by its line: the writer may go on. */
  readonly onLine: () => void
  /** The data could not become a line; it was replaced by an error line (see {@link unserializableLine}). */
  readonly onUnserializable: (record: HandedOver, error: InvalidRecordError) => void
}

/**
 * Serializes the records handed over, oldest first, a slice of about {@link SLICE_MS} per event-loop task,
 * and replaces each placeholder in the queue by its line. It owns nothing but its list: the queue keeps
 * the order (nothing after a placeholder is written before it), the writer writes.
 *
 * It is bounded by the queue: a record that is not next to be written is serialized only while the queue
 * is under half its bound and no record is past it (its line, of any size, joins the queue when done and
 * may have to be that one), so lines of records handed over cannot pile up past the bound while the disk
 * is slow; the writer calls {@link resume} as it writes.
 */
export class HandOverSerializer {
  readonly #s: HandOverSettings
  readonly #pending: HandedOver[] = []
  #scheduled = false
  // A slice is running: the data's own code (a toJSON, a getter) may call back into the recorder —
  // flushSync(), record() — and must not start another slice of a serializer from inside this one.
  #inSlice = false

  constructor(settings: HandOverSettings) {
    this.#s = settings
  }

  get pending(): number {
    return this.#pending.length
  }

  add(record: HandedOver): void {
    this.#pending.push(record)
    this.#schedule()
  }

  /** The queue moved (records were written): serializing may go on. */
  resume(): void {
    this.#schedule()
  }

  /**
   * Serializes the record at the head of the queue synchronously, now, while `more()` holds (checked every
   * ~10 ms, never in the middle of a slice): what a synchronous drain does once it has written everything
   * before it. True when its line replaced its placeholder.
   */
  serializeHead(more: () => boolean): boolean {
    const head = this.#pending[0]
    if (this.#inSlice || head === undefined || !this.#s.queue.isHead(head.placeholder)) return false
    while (this.#pending[0] === head && more()) this.#advance(head, performance.now() + SYNC_SLICE_MS)
    return this.#pending[0] !== head
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      const deadline = performance.now() + SLICE_MS
      while (this.#mayAdvance() && performance.now() < deadline) this.#advance(this.#pending[0]!, deadline)
      // Paused by the bound: resume() schedules again once the writer has made room.
      if (this.#mayAdvance()) this.#schedule()
    })
  }

  #mayAdvance(): boolean {
    const next = this.#pending[0]
    if (next === undefined || this.#inSlice) return false
    const queue = this.#s.queue
    if (queue.isHead(next.placeholder)) return true
    // Its line (of any size) may have to be the one record past the bound: only while that place is free.
    return queue.boundedChars <= this.#s.maxQueueChars / 2 && !queue.hasOver
  }

  /** One slice of the oldest record; its line replaces its placeholder once it is serialized. */
  #advance(record: HandedOver, deadline: number): void {
    let line: SerializedRecord
    const max = this.#s.maxRecordBytes
    this.#inSlice = true
    try {
      if (!record.json.step(deadline)) return
      line = handedOverLine(record.placeholder, record.json.result())
      const over = max === undefined ? null : bytesOverLimit(line, max)
      if (over !== null) throw new RecordTooLargeError(record.type, over, max!)
    } catch (thrown) {
      const error =
        thrown instanceof InvalidRecordError
          ? thrown
          : new InvalidRecordError(`Record data cannot be serialized to JSON: ${describe(thrown)}`, {
              cause: thrown,
            })
      line = unserializableLine(record.placeholder, error)
      // An error line too long for maxRecordBytes keeps only the code (record() made sure that one fits).
      if (max !== undefined && bytesOverLimit(line, max) !== null)
        line = unserializableLine(record.placeholder, error, false)
      this.#s.onUnserializable(record, error)
    } finally {
      this.#inSlice = false
    }
    this.#pending.shift()
    this.#s.queue.resolve(record.placeholder, line, this.#s.maxQueueChars)
    this.#s.onLine()
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return String(error)
  } catch {
    return Object.prototype.toString.call(error)
  }
}
