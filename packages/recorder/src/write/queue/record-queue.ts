import type { Chunk } from './chunk.js'
import { AheadPacker } from './ahead-packer.js'
import { ChunkBuffers } from './chunk-buffers.js'
import { encodeSlice, INITIAL_BYTES_PER_MS, TURN_BUDGET_MS } from './record-slice.js'
import {
  boundOf,
  bytesOf,
  encodeLine,
  Packed,
  PACKED,
  packable,
  queuedCharsOf,
  spanOf,
} from './packed-runs.js'
import { type HandOverSettings, walkHandedOver } from '../serialize/hand-over.js'
import { heldCharsOf, lineChars, type QueuedRecord } from '../serialize/serialize-record.js'

// Where the other write files have always found it.
export type { Chunk } from './chunk.js'

/** The queue's counters, read at once for `stats()`. */
export interface QueueCounts {
  readonly pendingRecords: number
  /** UTF-16 code units of text not yet written (held strings counted raw). */
  readonly pendingChars: number
  /** Code units of the strings held by queued records: the caller's memory, kept alive until written. */
  readonly heldChars: number
}

export interface QueueSettings extends HandOverSettings {
  /** `maxQueueChars`: the bound on the recorder's own queued text, in code units. */
  readonly maxQueueChars: number
  /** Bound on the held strings of the records queued, in code units (see `maxHeldChars`). */
  readonly maxHeldChars: number
}

// Compacting the arrays costs O(pending); doing it only when the consumed prefix is large and more than
// half of the arrays keeps it amortized O(1) per record.
const COMPACT_MIN_HEAD = 1024

const charsOf = lineChars

/**
 * The records accepted by `record()` and not yet written, in order, each a {@link QueuedRecord} whose bytes
 * are produced on demand, against the CPU budget of the turn: ordinary records are batched and encoded as
 * they are; a record holding strings (or bigger than a write) is written in slices, its held strings escaped
 * and encoded a piece at a time until the turn's deadline; a record handed over is walked first, a slice per
 * turn, when it is next. A chunk is removed only when it is committed (fully written), so a failed or
 * interrupted write leaves the queue exactly as it was.
 *
 * Memory is counted twice over: the recorder's own text (`boundedChars`, under `maxQueueChars`) and the
 * strings held by reference (`heldChars`, under `maxHeldChars`), which are the caller's.
 *
 * Encoding writes each string straight into one buffer (`buf.write` per part): measured on Node 20 that is
 * ~20× cheaper for a thousand 1 KB lines than `join('')` + `Buffer.from`, and it never copies a big record
 * into an intermediate string.
 */
export class RecordQueue {
  readonly #s: QueueSettings
  #records: QueuedRecord[] = []
  #uuids: string[] = []
  #timestamps: string[] = []
  // Index of the first unwritten record.
  #head = 0
  // Characters of the head record already written by earlier slices (only for a record bigger than a write).
  #headChars = 0
  #pendingChars = 0
  // Own and held code units of the records not wholly written (a record counts until its last slice).
  #ownChars = 0
  #heldChars = 0
  // The one record allowed past the bound (see admits()): null when none is queued.
  #over: QueuedRecord | null = null
  // Records handed over whose data is not walked yet: while there is one, no record behind it may take
  // the place past the bound (its line, of any size, may have to).
  #walks = 0
  // A walk is running: the data's own code (a toJSON, a getter) may call back into the recorder —
  // flushSync(), record() — and must not start another slice of a walk from inside this one.
  #walking = false
  // Bytes produced per ms by the last slice of a record written in slices: sizes the next slice's buffer.
  #bytesPerMs = INITIAL_BYTES_PER_MS
  readonly #buffers = new ChunkBuffers()
  // Records [head, #lentEnd) are in the chunk taken last and maybe being written: never packed under it.
  #lentEnd = 0
  readonly #packer = new AheadPacker(this.#buffers)

  constructor(settings: QueueSettings) {
    this.#s = settings
  }

  /** One read-only snapshot of the counters (a copy: it never changes after it is read). */
  get counts(): QueueCounts {
    return {
      pendingRecords: this.#records.length - this.#head,
      pendingChars: this.#pendingChars,
      heldChars: this.#heldChars,
    }
  }

  /** Code units of the strings held by queued records: the caller's memory, kept alive until written. */
  get heldChars(): number {
    return this.#heldChars
  }

  /** The head record is written in part (a record bigger than one write): stopping now would leave half a line. */
  get midRecord(): boolean {
    return this.#headChars > 0
  }

  get isEmpty(): boolean {
    return this.#head >= this.#records.length
  }

  /** Something to produce bytes from: a record to write, or to walk first. */
  get hasReady(): boolean {
    return !this.isEmpty
  }

  /**
   * The head record is handed over and its data not walked yet: nothing can be written before it is. False
   * from inside its walk (the data's own code calling the recorder): nothing can be done about it there.
   */
  get headPending(): boolean {
    return (
      !this.#walking && this.#head < this.#records.length && this.#records[this.#head]!.handedOver !== null
    )
  }

  /**
   * The recorder's own queued text that counts against `maxQueueChars`: all of it but the one record allowed
   * past the bound. That one record may be bigger than the bound itself: it is admitted, and the records
   * behind it are bounded on their own, so they need no synchronous drain while it is written in slices.
   * Memory: at most the bound plus one record. Held strings are not in it (see {@link heldChars}).
   */
  get boundedChars(): number {
    const over = this.#over
    return over === null ? this.#ownChars : this.#ownChars - ownCharsOf(over)
  }

  /** A record is queued past the bound (see {@link boundedChars}). */
  get hasOver(): boolean {
    return this.#over !== null
  }

  /**
   * How a record of `own` code units of text holding `held` can be queued under the bound `max`: `'within'`
   * it, as the one record `'over'` it, or `null`: not without making room first. Held strings must fit
   * under their own bound whatever the text does.
   */
  admits(own: number, held: number, max: number): 'within' | 'over' | null {
    if (this.#heldChars + held > this.#s.maxHeldChars) return null
    if (this.boundedChars + own <= max) return 'within'
    return this.#over === null && this.#walks === 0 ? 'over' : null
  }

  push(record: QueuedRecord, uuid: string, timestamp: string, over = false): void {
    this.#records.push(record)
    this.#uuids.push(uuid)
    this.#timestamps.push(timestamp)
    this.#count(record, 1)
    if (record.handedOver !== null) this.#walks++
    if (over) this.#over = record
  }

  /**
   * Makes the head writable: a record handed over is walked, a slice of the turn's budget; its line then takes
   * its place (as the one record past the bound when it does not fit under it and none is). True when the
   * head can be written now.
   */
  prepareHead(deadline = performance.now() + TURN_BUDGET_MS): boolean {
    const index = this.#head
    const entry = this.#records[index]
    if (entry?.handedOver == null) return true
    if (this.#walking) return false
    this.#walking = true
    let line: QueuedRecord | null
    try {
      line = walkHandedOver(entry, this.#uuids[index]!, deadline, this.#s)
    } finally {
      this.#walking = false
    }
    if (line === null) return false
    this.#count(entry, -1)
    this.#walks--
    this.#records[index] = line
    this.#count(line, 1)
    if (this.#over === entry || (this.#over === null && this.boundedChars > this.#s.maxQueueChars))
      this.#over = line
    return true
  }

  /**
   * The next chunk to write, at most `maxBytes` UTF-8 bytes, without removing it; `null` when the head is
   * not walked yet (see {@link prepareHead}). Ordinary records are never split across chunks unless one
   * alone exceeds a third of `maxBytes` (then it is written in slices, as a record holding strings is); a
   * slice ends at `deadline`, and never splits a surrogate pair.
   */
  nextChunk(maxBytes: number, deadline = performance.now() + TURN_BUDGET_MS): Chunk | null {
    const head = this.#head
    const records = this.#records
    if (head >= records.length) return null
    const first = records[head]!
    if (first.handedOver !== null) return null
    if (this.#packer.isOpen(first)) {
      const { buffer, end, chars } = this.#packer.takeOpen(records, head, maxBytes)
      return this.#lend(this.#wholeRecords(buffer, end, chars))
    }
    const packed = first instanceof Packed
    // UTF-8 takes at most 3 bytes per code unit of text: a batch is sized by that bound, and measured
    // exactly only where the bound passes `maxBytes` (one record's worth per chunk, at most a third of it).
    // A packed run's bytes are known (and never more than `maxBytes`).
    if (!packed && (typeof first.body !== 'string' || this.#headChars > 0 || charsOf(first) * 3 > maxBytes))
      return this.#lend(this.#slice(first, maxBytes, deadline))
    let end = head + spanOf(first)
    let chars = queuedCharsOf(first)
    let bound = boundOf(first)
    // Exact bytes of records [head, end), once the bound no longer does (-1 until then).
    let exact = -1
    while (end < records.length) {
      const next = records[end]!
      if (!(next instanceof Packed) && (typeof next.body !== 'string' || next.handedOver !== null)) break
      const nextBound = boundOf(next)
      if (bound + nextBound > maxBytes) {
        if (exact < 0) exact = exactBytes(records, head, end)
        const nextBytes = exact + bytesOf(next)
        if (nextBytes > maxBytes) break
        exact = nextBytes
      }
      // The open pack joins the batch like any pack: it no longer grows, and its scratch is left to it.
      if (this.#packer.isOpen(next)) this.#packer.release()
      bound += nextBound
      chars += queuedCharsOf(next)
      end += spanOf(next)
    }
    let buffer: Buffer
    if (packed && end === head + first.records) buffer = first.bytes
    else {
      const bytes = exact >= 0 ? exact : bound < EXACT_SIZE_BELOW ? exactBytes(records, head, end) : bound
      // Small buffers come from Node's shared pool; big ones get the bound (3 bytes per code unit) when the
      // exact size is not known: scanning the text just to size the buffer costs about as much as encoding it.
      buffer = bytes < EXACT_SIZE_BELOW ? Buffer.allocUnsafe(bytes) : this.#buffers.take(bytes)
      let offset = 0
      for (let i = head; i < end;) {
        const record = records[i]!
        if (record instanceof Packed) {
          offset += record.bytes.copy(buffer, offset)
          i += record.records
          continue
        }
        offset = encodeLine(record, buffer, offset)
        i++
      }
      buffer = buffer.subarray(0, offset)
    }
    return this.#lend(this.#wholeRecords(buffer, end, chars))
  }

  /** The chunk of the whole records from the head to `end`: their `chars` code units encoded in `buffer`. */
  #wholeRecords(buffer: Buffer, end: number, chars: number): Chunk {
    const head = this.#head
    return {
      buffer,
      completes: end - head,
      lastUuid: this.#uuids[end - 1]!,
      firstTimestamp: this.#timestamps[head]!,
      lastTimestamp: this.#timestamps[end - 1]!,
      advance: end - head,
      nextHeadChars: 0,
      chars,
    }
  }

  /** Notes which records the chunk taken covers (a slice covers its record): packAhead() leaves them be. */
  #lend(chunk: Chunk): Chunk {
    this.#lentEnd = this.#head + Math.max(chunk.advance, 1)
    return chunk
  }

  /**
   * Encodes the ordinary records waiting behind the chunk being written into packs (packed-runs.ts: their
   * exact bytes, outside V8's heap, at most `maxBytes` each) until `deadline`, and lets their strings go, so
   * that a backlog behind a write in flight (a big record, or just the write and the read that checks the
   * file before the next one) is nothing for a scavenge to copy. The bytes written are the same.
   */
  packAhead(maxBytes: number, deadline = performance.now() + TURN_BUDGET_MS): void {
    this.#packer.pack(
      this.#records,
      Math.max(this.#head, this.#lentEnd),
      maxBytes,
      deadline,
      (record, size) => this.#packable(record, size),
    )
  }

  /** An ordinary record, small enough to go into a pack whole, and not the one record past the bound. */
  #packable(record: QueuedRecord, size: number): boolean {
    return record !== this.#over && packable(record, size)
  }

  /** The next slice of the head record, from `headChars` (see record-slice.ts). */
  #slice(record: QueuedRecord, maxBytes: number, deadline: number): Chunk {
    const from = this.#headChars
    const slice = encodeSlice(record, from, maxBytes, deadline, this.#buffers, this.#bytesPerMs)
    this.#bytesPerMs = slice.bytesPerMs
    const { to } = slice
    const withNewline = to === charsOf(record)
    const index = this.#head
    return {
      buffer: slice.buffer,
      completes: withNewline ? 1 : 0,
      lastUuid: withNewline ? this.#uuids[index]! : null,
      firstTimestamp: withNewline ? this.#timestamps[index]! : null,
      lastTimestamp: withNewline ? this.#timestamps[index]! : null,
      advance: withNewline ? 1 : 0,
      nextHeadChars: withNewline ? 0 : to,
      chars: to - from,
    }
  }

  /**
   * The chunk taken may still be read by a write the threadpool runs after this (a synchronous drain took
   * over while it was in flight): its buffer is never reused.
   */
  keepLentBuffer(): void {
    this.#buffers.keepLent()
  }

  /**
   * The head record's slices written so far are gone or damaged (the file was cut, overwritten or appended
   * to between two of them): it is written again from its first character. It is still whole here (a
   * record leaves the queue with its last slice), so nothing is lost; the chunk taken last, not written, is
   * dropped (its buffer is not reused).
   */
  restartHead(): void {
    this.#buffers.keepLent()
    this.#pendingChars += this.#headChars
    this.#headChars = 0
  }

  /** Removes a chunk taken by {@link nextChunk} once all its bytes are written. */
  commit(chunk: Chunk): void {
    this.#buffers.committed(chunk.buffer)
    // Drop references as we go so written records can be collected before the arrays are compacted.
    for (let i = this.#head; i < this.#head + chunk.advance; i++) {
      const record = this.#records[i]!
      if (record === this.#over) this.#over = null
      if (record instanceof Packed) this.#ownChars -= record.chars
      else if (record !== PACKED) {
        this.#ownChars -= ownCharsOf(record)
        this.#heldChars -= heldCharsOf(record)
      }
      this.#records[i] = EMPTY
      // The uuid and timestamp too: kept until the arrays are compacted, they would outlive two scavenges
      // and be promoted, for the old generation's collector to find dead.
      this.#uuids[i] = ''
      this.#timestamps[i] = ''
    }
    this.#head += chunk.advance
    this.#headChars = chunk.nextHeadChars
    this.#pendingChars -= chunk.chars
    this.#compact()
  }

  #count(record: QueuedRecord, sign: 1 | -1): void {
    this.#pendingChars += sign * charsOf(record)
    this.#ownChars += sign * ownCharsOf(record)
    this.#heldChars += sign * heldCharsOf(record)
  }

  #compact(): void {
    const done = this.#head
    if (done >= this.#records.length) {
      this.#buffers.idle()
      this.#packer.reset()
      this.#records.length = 0
      this.#uuids.length = 0
      this.#timestamps.length = 0
      this.#head = 0
      this.#lentEnd = 0
    } else if (done >= COMPACT_MIN_HEAD && done * 2 >= this.#records.length) {
      this.#records.splice(0, done)
      this.#uuids.splice(0, done)
      this.#timestamps.splice(0, done)
      this.#head = 0
      this.#lentEnd = Math.max(0, this.#lentEnd - done)
      this.#packer.shift(done)
    }
  }
}

const EMPTY: QueuedRecord = { head: '', body: '', handedOver: null }

/** Code units of the record's own text: its line but the strings it holds. */
function ownCharsOf(record: QueuedRecord): number {
  return charsOf(record) - heldCharsOf(record)
}

// Below this many characters (or bytes) the exact UTF-8 size is computed and the buffer comes from Node's
// shared pool.
const EXACT_SIZE_BELOW = 16 * 1024

function exactBytes(records: readonly QueuedRecord[], from: number, to: number): number {
  let bytes = 0
  for (let i = from; i < to; i += spanOf(records[i]!)) bytes += bytesOf(records[i]!)
  return bytes
}
