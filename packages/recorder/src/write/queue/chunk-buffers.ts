/**
 * The buffers the queue encodes chunks into (record-queue.ts), owned in one place so that one can be reused:
 * the buffer of the last chunk written is kept for the next one while records are queued. A backlog of big
 * records is written a slice per turn; a new buffer per slice was external memory to V8 until collected —
 * about twice the bytes written (203 MiB of buffers for the `big` workload's 100 MB) — and V8 answered that
 * with garbage collections, a mark-compact among them, which writing JSON.stringify's output alone does not
 * have. Reused, the same workload allocates 5–7 MiB. An idle recorder holds none.
 */
export class ChunkBuffers {
  // The buffer of the chunk taken and not committed yet (null: none, or not to be reused).
  #lent: Buffer | null = null
  // The buffer of the last chunk committed, for the next one.
  #spare: Buffer | null = null

  /** A buffer of at least `size` bytes for the next chunk: the last one written when it is big enough. */
  take(size: number): Buffer {
    const buffer = this.scratch(size)
    this.lend(buffer)
    return buffer
  }

  /**
   * A buffer of at least `size` bytes to encode queued records into ahead of their write (the queue's open
   * pack): the last one written when it is big enough. It is not lent until {@link lend} says so.
   */
  scratch(size: number): Buffer {
    const spare = this.#spare
    this.#spare = null
    return spare !== null && spare.length >= size ? spare : Buffer.allocUnsafeSlow(size)
  }

  /** A buffer from {@link scratch} is the next chunk's: once written, it may be reused. */
  lend(buffer: Buffer): void {
    this.#lent = buffer
  }

  /** The chunk whose bytes are `bytes` is written: its buffer may be the next one's. */
  committed(bytes: Uint8Array): void {
    if (this.#lent !== null && bytes.buffer === this.#lent.buffer) this.#spare = this.#lent
    this.#lent = null
  }

  /**
   * The chunk taken may still be read by a write the threadpool runs after this (a synchronous drain took
   * over while it was in flight): its buffer is never reused.
   */
  keepLent(): void {
    this.#lent = null
  }

  /** Nothing is queued: hold no buffer. */
  idle(): void {
    this.#spare = null
  }
}
