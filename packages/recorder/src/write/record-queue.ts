import { DATA_PENDING, lineChars, type SerializedRecord } from './serialize-record.js'
import { textOf, unitAt } from './lazy-json-text.js'

/** A run of queued text handed to one write: whole records, or one slice of a record too big for one write. */
export interface Chunk {
  readonly buffer: Buffer
  /** How many records end inside this chunk (their last byte, the newline, is in it). */
  readonly completes: number
  /** uuid of the last record that ends in this chunk; `null` when none does. */
  readonly lastUuid: string | null
  /** Timestamps of the first and last records that end in this chunk; `null` when none does. */
  readonly firstTimestamp: string | null
  readonly lastTimestamp: string | null
  /**
   * Queue position after this chunk is committed, relative to where it was taken: how many records the
   * head moves (relative, so the arrays can be compacted without invalidating a chunk being written).
   */
  readonly advance: number
  readonly nextHeadChars: number
  /** UTF-16 code units of queued text this chunk covers. */
  readonly chars: number
}

// Compacting the arrays costs O(pending); doing it only when the consumed prefix is large and more than
// half of the arrays keeps it amortized O(1) per record.
const COMPACT_MIN_HEAD = 1024
const NEWLINE = 0x0a
// A record holding big strings (see SerializedRecord.lazy) is escaped as it is written, a slice per write,
// always on its own (never batched with the records around it). Each slice is sized so that escaping and
// encoding it takes about LAZY_TASK_MS: the next slice is scaled from how long the last one took. On the
// 2-core reference VM 1 Mi code units take ~2 ms as base64 and ~5 ms as text with escapes and non-ASCII, so
// a fixed size is either too slow for the one (one write per loop turn: a producer of big records outruns
// it) or too long a task for the other. The first slice is LAZY_FIRST_CHARS. 1.5 ms, not 2: with 2 the
// tasks' p99 was 4–4.7 ms and their maximum 5–7 ms (bench/huge-tasks.ts); with 1.5, p99 3–3.3, max 4–5.
const LAZY_TASK_MS = 1.5
const LAZY_FIRST_CHARS = 512 * 1024
const LAZY_MIN_CHARS = 64 * 1024

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/** Characters of a record's line: head + body + the newline (a lazy body counts its big strings raw). */
const charsOf = lineChars

/**
 * The records accepted by `record()` and not yet written, in order. Records stay as the strings `record()`
 * produced until a chunk is taken; a chunk is removed only when it is committed (fully written), so a failed
 * or interrupted write leaves the queue exactly as it was.
 *
 * Encoding writes each string straight into one buffer (`buf.write` per part):
 * measured on Node 20 that is ~20× cheaper for a thousand 1 KB lines than `join('')` + `Buffer.from`, and it
 * never copies a big record into an intermediate string.
 */
export class RecordQueue {
  #records: SerializedRecord[] = []
  #uuids: string[] = []
  #timestamps: string[] = []
  // Index of the first unwritten record.
  #head = 0
  // Characters of the head record already written by earlier slices (only for a record bigger than a write).
  #headChars = 0
  #pendingChars = 0
  // The one record allowed past the bound (see admits()): null when none is queued.
  #over: SerializedRecord | null = null
  // Code units of the next slice of a record holding big strings (see LAZY_TASK_MS).
  #lazyChars = LAZY_FIRST_CHARS

  get pendingRecords(): number {
    return this.#records.length - this.#head
  }

  /** UTF-16 code units of text not yet written. */
  get pendingChars(): number {
    return this.#pendingChars
  }

  /** The head record is written in part (a record bigger than one write): stopping now would leave half a line. */
  get midRecord(): boolean {
    return this.#headChars > 0
  }

  get isEmpty(): boolean {
    return this.#head >= this.#records.length
  }

  /** The head record can be written now: it is not a record handed over whose data is still being serialized. */
  get hasReady(): boolean {
    return !this.isEmpty && !this.headPending
  }

  /** `record` is the next to be written. */
  isHead(record: SerializedRecord): boolean {
    return this.#records[this.#head] === record
  }

  /** The head record waits for its data to be serialized: nothing can be written before it is. */
  get headPending(): boolean {
    return this.#head < this.#records.length && this.#records[this.#head]!.lazy === DATA_PENDING
  }

  /**
   * Queued text that counts against `maxQueueBytes`: all of it but what is left of the one record allowed
   * past the bound. That one record may be bigger than the bound itself (a 100 MB tool result with the
   * default 64 MiB): it is admitted, and the records behind it are bounded on their own, so they need no
   * synchronous drain while it is written in slices. Memory: at most the bound plus one record.
   */
  get boundedChars(): number {
    const over = this.#over
    if (over === null) return this.#pendingChars
    const written = this.#records[this.#head] === over ? this.#headChars : 0
    return this.#pendingChars - (charsOf(over) - written)
  }

  /** A record is queued past the bound (see {@link boundedChars}). */
  get hasOver(): boolean {
    return this.#over !== null
  }

  /**
   * How a record of `chars` can be queued under the bound `max`: `'within'` it, as the one record `'over'`
   * it (none is queued yet), or `null`: not without making room first.
   */
  admits(chars: number, max: number): 'within' | 'over' | null {
    if (this.boundedChars + chars <= max) return 'within'
    return this.#over === null ? 'over' : null
  }

  push(record: SerializedRecord, uuid: string, timestamp: string, over = false): void {
    this.#records.push(record)
    this.#uuids.push(uuid)
    this.#timestamps.push(timestamp)
    this.#pendingChars += charsOf(record)
    if (over) this.#over = record
  }

  /**
   * Replaces the placeholder of a record handed over by its line, in place. A line that does not fit under
   * `max` becomes the record allowed past the bound when there is none yet (otherwise the bound is past
   * until it is written, and record() applies the overflow policy meanwhile).
   */
  resolve(placeholder: SerializedRecord, line: SerializedRecord, max: number): void {
    const index = this.#records.indexOf(placeholder, this.#head)
    if (index < 0) return
    this.#records[index] = line
    this.#pendingChars += charsOf(line) - charsOf(placeholder)
    if (this.#over === placeholder || (this.#over === null && this.boundedChars > max)) this.#over = line
  }

  /**
   * The next chunk to write, at most `maxChars` code units of text, without removing it. Records are never
   * split across chunks unless one alone exceeds `maxChars`; a surrogate pair is never split.
   */
  nextChunk(maxChars: number): Chunk | null {
    const head = this.#head
    const records = this.#records
    if (head >= records.length) return null
    const first = records[head]!
    if (first.lazy === DATA_PENDING) return null
    if (first.lazy !== undefined) return this.#lazySlice(first, maxChars)
    if (this.#headChars > 0 || charsOf(first) > maxChars) return this.#slice(first, maxChars)
    let end = head + 1
    let chars = charsOf(first)
    while (
      end < records.length &&
      records[end]!.lazy === undefined &&
      chars + charsOf(records[end]!) <= maxChars
    )
      chars += charsOf(records[end++]!)
    const buffer = allocateFor(chars, () => {
      let bytes = 0
      for (let i = head; i < end; i++) {
        const record = records[i]!
        bytes += Buffer.byteLength(record.head) + Buffer.byteLength(record.body) + 1
      }
      return bytes
    })
    let offset = 0
    for (let i = head; i < end; i++) {
      const record = records[i]!
      offset += buffer.write(record.head, offset)
      if (record.body.length > 0) offset += buffer.write(record.body, offset)
      buffer[offset++] = NEWLINE
    }
    return {
      buffer: buffer.subarray(0, offset),
      completes: end - head,
      lastUuid: this.#uuids[end - 1]!,
      firstTimestamp: this.#timestamps[head]!,
      lastTimestamp: this.#timestamps[end - 1]!,
      advance: end - head,
      nextHeadChars: 0,
      chars,
    }
  }

  /** The next slice of a record holding big strings, sized to take about LAZY_TASK_MS to make. */
  #lazySlice(record: SerializedRecord, maxChars: number): Chunk {
    const chars = Math.min(maxChars, this.#lazyChars)
    const started = performance.now()
    const chunk = this.#slice(record, chars)
    const elapsed = performance.now() - started
    // Only a full slice says how fast this text goes (the last one of a record is shorter). Halfway between
    // the last size and the one that would have taken the target, and at most 1.5× the last: one slow slice
    // (a GC) is not followed by a tiny one, nor one fast slice (base64 before text) by a huge one.
    if (chunk.chars >= chars) {
      const fitting = (chunk.chars * LAZY_TASK_MS) / Math.max(elapsed, 0.01)
      const next = Math.min((chars + fitting) / 2, chars * 1.5, maxChars)
      this.#lazyChars = Math.round(Math.max(LAZY_MIN_CHARS, next))
    }
    return chunk
  }

  /** The next slice of a record too big for one write: characters [headChars, headChars + maxChars). */
  #slice(record: SerializedRecord, maxChars: number): Chunk {
    const total = charsOf(record)
    const from = this.#headChars
    let to = Math.min(total, from + maxChars)
    if (to < total && isHighSurrogate(charCodeAt(record, to - 1))) to--
    const pieces: string[] = []
    const { head, body, lazy } = record
    if (from < head.length) pieces.push(head.slice(from, Math.min(to, head.length)))
    const bodyFrom = Math.max(from - head.length, 0)
    const bodyTo = Math.min(to - head.length, total - 1 - head.length)
    if (bodyTo > bodyFrom) {
      if (lazy === undefined) pieces.push(body.slice(bodyFrom, bodyTo))
      else textOf(lazy, bodyFrom, bodyTo, pieces)
    }
    const withNewline = to === total
    // Escaping makes the text longer than the units it covers: the buffer is sized on the text itself.
    let textChars = withNewline ? 1 : 0
    for (const piece of pieces) textChars += piece.length
    const buffer = allocateFor(textChars, () => {
      let bytes = withNewline ? 1 : 0
      for (const piece of pieces) bytes += Buffer.byteLength(piece)
      return bytes
    })
    let offset = 0
    for (const piece of pieces) offset += buffer.write(piece, offset)
    if (withNewline) buffer[offset++] = NEWLINE
    const index = this.#head
    return {
      buffer: buffer.subarray(0, offset),
      completes: withNewline ? 1 : 0,
      lastUuid: withNewline ? this.#uuids[index]! : null,
      firstTimestamp: withNewline ? this.#timestamps[index]! : null,
      lastTimestamp: withNewline ? this.#timestamps[index]! : null,
      advance: withNewline ? 1 : 0,
      nextHeadChars: withNewline ? 0 : to,
      chars: to - from,
    }
  }

  /** Removes a chunk taken by {@link nextChunk} once all its bytes are written. */
  commit(chunk: Chunk): void {
    // Drop references as we go so written records can be collected before the arrays are compacted.
    for (let i = this.#head; i < this.#head + chunk.advance; i++) {
      if (this.#records[i] === this.#over) this.#over = null
      this.#records[i] = EMPTY
    }
    this.#head += chunk.advance
    this.#headChars = chunk.nextHeadChars
    this.#pendingChars -= chunk.chars
    this.#compact()
  }

  #compact(): void {
    const done = this.#head
    if (done >= this.#records.length) {
      this.#records.length = 0
      this.#uuids.length = 0
      this.#timestamps.length = 0
      this.#head = 0
    } else if (done >= COMPACT_MIN_HEAD && done * 2 >= this.#records.length) {
      this.#records.splice(0, done)
      this.#uuids.splice(0, done)
      this.#timestamps.splice(0, done)
      this.#head = 0
    }
  }
}

const EMPTY: SerializedRecord = { head: '', body: '', lazy: undefined }

// Below this many characters the exact UTF-8 size is computed, so the buffer can come from Node's shared
// pool; above it, scanning the text just to size the buffer costs about as much as encoding it, so the
// buffer gets the upper bound (3 bytes per UTF-16 code unit) instead: untouched pages of a large
// allocation are never committed, so the slack costs address space, not memory.
const EXACT_SIZE_BELOW = 16 * 1024

function allocateFor(chars: number, exactBytes: () => number): Buffer {
  return chars < EXACT_SIZE_BELOW ? Buffer.allocUnsafe(exactBytes()) : Buffer.allocUnsafeSlow(chars * 3)
}

/** The character at `index` of the record's line (of a big string's raw text, for a lazy body). */
function charCodeAt(record: SerializedRecord, index: number): number {
  if (index < record.head.length) return record.head.charCodeAt(index)
  const inBody = index - record.head.length
  const { body, lazy } = record
  if (lazy !== undefined) return inBody < lazy.chars ? unitAt(lazy, inBody) : NEWLINE
  return inBody < body.length ? body.charCodeAt(inBody) : NEWLINE
}
