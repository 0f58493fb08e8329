import { bytesAt } from './file-scan.js'
import type * as io from './io.js'

/**
 * What the recorder expects to find in its open transcript, besides its size: the file's first bytes (the
 * first record's envelope: its uuid and session id) and the last bytes our writes left at its end. Size
 * and inode alone cannot tell a file overwritten in place (`cat other > file`: same inode, any size) from
 * one that is as we left it; these two small windows can, with two short reads per path check. Nothing
 * else is kept: a few hundred bytes per recorder.
 */

// The first line's envelope up to and past the session id is well within this.
const HEAD_BYTES = 256
// Enough of our last record's bytes that another file ending with the same bytes there is no accident.
const TAIL_BYTES = 64

/** How the file compares with what our writes left. */
export type ContentMatch =
  /** Our first and last bytes are where we left them. */
  | 'intact'
  /** Our first bytes are in place and our last write ends the file, but bytes not ours came before it. */
  | 'interleaved'
  /** Our first bytes or our last bytes are gone: the file was rewritten in place. */
  | 'rewritten'

export class ExpectedContent {
  /** The file's first bytes as we know them (read at open, or written by us). */
  #head: Buffer = Buffer.alloc(0)
  /** The last bytes of the file as we left it; they end at the size we expect. */
  #tail: Buffer = Buffer.alloc(0)

  /** A new file, empty, or none yet: nothing to expect but what we write. */
  clear(): void {
    this.#head = Buffer.alloc(0)
    this.#tail = Buffer.alloc(0)
  }

  /** Takes what the file holds now as the expectation (at open, after a change we accept). */
  *adopt(fd: number, size: number): io.Io<Buffer> {
    this.#head = yield* bytesAt(fd, 0, Math.min(HEAD_BYTES, size))
    this.#tail = yield* bytesAt(fd, size - Math.min(TAIL_BYTES, size), Math.min(TAIL_BYTES, size))
    return this.#tail
  }

  /** `bytes` of ours landed at `base`. */
  landed(base: number, bytes: Uint8Array): void {
    if (bytes.length === 0) return
    if (base < HEAD_BYTES && base <= this.#head.length) {
      const head = Buffer.concat([this.#head.subarray(0, base), bytes.subarray(0, HEAD_BYTES - base)])
      this.#head = head
    }
    this.#tail =
      bytes.length >= TAIL_BYTES
        ? Buffer.from(bytes.subarray(bytes.length - TAIL_BYTES))
        : Buffer.concat([this.#tail, bytes]).subarray(-TAIL_BYTES)
  }

  /**
   * One read, before a write: the file still ends, at `expected`, with the bytes we left there. It reads one
   * byte past that end, so a file grown (an append), shrunk or overwritten (other bytes there) all fail it.
   */
  *endsAsExpected(fd: number, expected: number): io.Io<boolean> {
    const tail = this.#tail
    const found = yield* bytesAt(fd, expected - tail.length, tail.length + 1)
    return found.length === tail.length && found.equals(tail)
  }

  /** The file open as `fd`, `size` bytes long, against our expectation that it is at least `expected` long. */
  *compare(fd: number, expected: number, size: number): io.Io<ContentMatch> {
    const head = this.#head
    const found = yield* bytesAt(fd, 0, head.length)
    if (!found.equals(head)) return 'rewritten'
    const tail = this.#tail
    if (size < expected || tail.length === 0) return 'intact'
    if ((yield* bytesAt(fd, expected - tail.length, tail.length)).equals(tail)) return 'intact'
    // Someone appended between our writes (their bytes came before our last one): our last bytes end the file.
    if (size > expected && (yield* bytesAt(fd, size - tail.length, tail.length)).equals(tail))
      return 'interleaved'
    return 'rewritten'
  }
}
