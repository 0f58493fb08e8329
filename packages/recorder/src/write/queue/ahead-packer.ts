import type { ChunkBuffers } from './chunk-buffers.js'
import { encodeRun, PACK_BYTES, Packed, packable, placeRun } from './packed-runs.js'
import type { QueuedRecord } from '../serialize/serialize-record.js'

/**
 * Encodes the queue's ordinary records ahead of their write, into packs (packed-runs.ts says why), with as
 * few copies as it can: runs are encoded into one scratch buffer, and the last pack stays *open* there —
 * a run queued right after it extends it in place — until a write takes it: then the scratch itself becomes
 * that write's buffer, the records queued behind the pack encoded after its bytes, and the next runs go
 * into another scratch (the buffer of the last write, once written: see ChunkBuffers). A pack closed before
 * that (a record that cannot join it comes next, or it is full) keeps the scratch when it fills most of it,
 * else it is copied out at its exact size and the scratch is encoded into afresh: a pack never holds much
 * more memory than its bytes. It works on the queue's arrays (record-queue.ts), whose owner tells it when
 * their places move.
 */
export class AheadPacker {
  readonly #buffers: ChunkBuffers
  // Records before this index were looked at already (packed, or not packable).
  #packedEnd = 0
  // Where runs are encoded (null while nothing is queued, and once it became a write's buffer).
  #scratch: Buffer | null = null
  // The pack whose bytes are the scratch's first bytes, and its index in the queue's arrays.
  #open: Packed | null = null
  #openAt = 0

  constructor(buffers: ChunkBuffers) {
    this.#buffers = buffers
  }

  /** `entry` is the open pack (see {@link takeOpen}). */
  isOpen(entry: QueuedRecord): boolean {
    return entry === this.#open
  }

  /**
   * Packs the records from `from` that `fits` accepts (for a pack of the size given), until `deadline`; each
   * pack at most `maxBytes` and {@link PACK_BYTES}.
   */
  pack(
    records: QueuedRecord[],
    from: number,
    maxBytes: number,
    deadline: number,
    fits: (record: QueuedRecord, size: number) => boolean,
  ): void {
    const size = Math.min(maxBytes, PACK_BYTES)
    let i = Math.max(from, this.#packedEnd)
    while (i < records.length && performance.now() < deadline) {
      if (!fits(records[i]!, size)) {
        this.#packedEnd = ++i
        continue
      }
      const open = this.#open
      const contiguous = open !== null && this.#openAt + open.records === i
      if (!contiguous) this.#close(records)
      const scratch = (this.#scratch ??= this.#buffers.scratch(size))
      const start = contiguous ? this.#openAt : i
      // Within `size` even when the scratch is a bigger buffer reused: a pack is at most PACK_BYTES, and one
      // run's encoding (never cut by the deadline) at most that much work.
      const run = encodeRun(
        records,
        i,
        scratch.subarray(0, size),
        contiguous ? open.bytes.length : 0,
        (record) => fits(record, size),
      )
      if (run.end === i) {
        // The next record does not fit in the scratch's room: the open pack is closed, the run starts anew.
        this.#close(records)
        continue
      }
      this.#open = placeRun(
        records,
        start,
        scratch.subarray(0, run.offset),
        run.end - start,
        (contiguous ? open.chars : 0) + run.chars,
      )
      this.#openAt = start
      this.#packedEnd = i = run.end
    }
  }

  /**
   * The open pack, at `head`, becomes a write's bytes: the ordinary records queued behind it (not packed yet)
   * are encoded into the scratch after it, as far as it and `maxBytes` have room, and the scratch is lent as
   * the write's buffer — nothing copied. Returns the buffer, the index after the last record in it and the
   * code units they stood for in the queue.
   */
  takeOpen(
    records: readonly QueuedRecord[],
    head: number,
    maxBytes: number,
  ): { readonly buffer: Buffer; readonly end: number; readonly chars: number } {
    const open = this.#open!
    const scratch = this.#scratch!
    this.#open = null
    this.#scratch = null
    const room = Math.min(scratch.length, maxBytes)
    const run = encodeRun(
      records,
      head + open.records,
      scratch.subarray(0, room),
      open.bytes.length,
      (record) => packable(record, room),
    )
    this.#buffers.lend(scratch)
    return { buffer: scratch.subarray(0, run.offset), end: run.end, chars: open.chars + run.chars }
  }

  /** The open pack goes into a write like any pack: it no longer grows, and its scratch is left to it. */
  release(): void {
    this.#open = null
    this.#scratch = null
  }

  /** Nothing is queued: nothing is held. */
  reset(): void {
    this.#scratch = null
    this.#open = null
    this.#packedEnd = 0
  }

  /** The queue's arrays lost their first `done` places. */
  shift(done: number): void {
    this.#packedEnd = Math.max(0, this.#packedEnd - done)
    if (this.#open !== null) this.#openAt -= done
  }

  /** The open pack stops growing (see the class comment). */
  #close(records: QueuedRecord[]): void {
    const open = this.#open
    if (open === null) return
    this.#open = null
    const scratch = this.#scratch!
    if (open.bytes.length * 4 >= scratch.length * 3) {
      this.#scratch = null
      return
    }
    const bytes = Buffer.allocUnsafe(open.bytes.length)
    open.bytes.copy(bytes)
    records[this.#openAt] = new Packed(bytes, open.records, open.chars)
  }
}
