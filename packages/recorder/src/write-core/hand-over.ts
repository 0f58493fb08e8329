import { InvalidRecordError, RecordTooLargeError } from '../errors.js'
import type { RecordQueue } from '../record-queue.js'
import {
  bytesOverLimit,
  handedOverLine,
  type SerializedRecord,
  unserializableLine,
} from '../serialize-record.js'
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
 */
export class HandOverSerializer {
  readonly #s: HandOverSettings
  readonly #pending: HandedOver[] = []
  #scheduled = false

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

  /**
   * Serializes synchronously, now, oldest first, while `more()` holds (checked every ~10 ms, never in the
   * middle of a slice). True when nothing is left pending.
   */
  serializeSync(more: () => boolean): boolean {
    while (this.#pending.length > 0 && more())
      this.#advance(this.#pending[0]!, performance.now() + SYNC_SLICE_MS)
    return this.#pending.length === 0
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      const deadline = performance.now() + SLICE_MS
      while (this.#pending.length > 0 && performance.now() < deadline)
        this.#advance(this.#pending[0]!, deadline)
      this.#schedule()
    })
  }

  /** One slice of the oldest record; its line replaces its placeholder once it is serialized. */
  #advance(record: HandedOver, deadline: number): void {
    let line: SerializedRecord
    try {
      if (!record.json.step(deadline)) return
      line = handedOverLine(record.placeholder, record.json.result())
      const max = this.#s.maxRecordBytes
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
      this.#s.onUnserializable(record, error)
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
