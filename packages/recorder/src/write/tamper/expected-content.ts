import { bytesAt, endOfFirst } from './file-scan.js'
import * as io from '../loop/io.js'
import { NEWLINE } from '../../format/record-format.js'

/**
 * What the recorder expects to find in its open transcript, besides its size: the file's first bytes (the
 * first line, up to 256 bytes: the first record's envelope, its uuid and session id) and the last bytes our writes left at its end. Size
 * and inode alone cannot tell a file overwritten in place (`cat other > file`: same inode, any size) from
 * one that is as we left it; these two small windows can, with two short reads per path check. Nothing
 * else is kept: a few hundred bytes per recorder.
 */

// The first line's envelope up to and past the session id is well within this. Only the first line counts:
// the lines after it are the ones appends and cuts change.
export const HEAD_BYTES = 256

/** `bytes` up to and including their first newline. */
function firstLineOf(bytes: Buffer): Buffer {
  const newline = bytes.indexOf(NEWLINE)
  return newline === -1 ? bytes : bytes.subarray(0, newline + 1)
}
// Enough of our last record's bytes that another file ending with the same bytes there is no accident.
export const TAIL_BYTES = 64
// How far past where we left them our last bytes are looked for when someone's bytes landed before our last
// write (an append racing it, between the read before the write and the write): what one write call of
// another tool appends in that moment. Past it, the file is taken for rewritten in place (and reported so).
const SHIFT_LIMIT = 1024 * 1024
// Enough of a write's first bytes for the uuid of the record it starts with (`{"uuid":"` and 36 characters).
const WRITE_HEAD_BYTES = 64
// How many places holding our last write's first bytes are checked for its last bytes: more than one only
// when its first record was written again (a glued record's carry), so a few are plenty.
const MAX_CANDIDATES = 8
const RECORD_START = Buffer.from('{"uuid":"')
const CLOSING_BRACE = 0x7d

/** Whether `bytes` (from a line start) hold a whole line that is one of our records (ends with `}`). */
function holdsARecordLine(bytes: Buffer): boolean {
  for (let start = 0; ;) {
    const newline = bytes.indexOf(NEWLINE, start)
    if (newline === -1) return false
    if (startsARecord(bytes.subarray(start, newline)) && bytes[newline - 1] === CLOSING_BRACE) return true
    start = newline + 1
  }
}

/** Whether `bytes` begin one of our records (our envelope's first key). */
function startsARecord(bytes: Buffer): boolean {
  return bytes.length > RECORD_START.length && bytes.subarray(0, RECORD_START.length).equals(RECORD_START)
}

/** How the file compares with what our writes left. */
export type ContentMatch =
  /** Our first and last bytes are where we left them. */
  | 'intact'
  /**
   * Our first bytes are in place and our last write is in the file, but bytes not ours came before it (and
   * maybe after it): see {@link ExpectedContent.shiftedEnd}.
   */
  | 'interleaved'
  /** Our first bytes or our last bytes are gone: the file was rewritten in place. */
  | 'rewritten'

export class ExpectedContent {
  /** The file's first bytes as we know them (read at open, or written by us). */
  #head: Buffer = Buffer.alloc(0)
  /** The last bytes of the file as we left it; they end at the size we expect. */
  #tail: Buffer = Buffer.alloc(0)
  /**
   * The first bytes of our last write call (a record's start names its uuid): with the tail, they find that
   * write again in a file cut or rewritten since, someone's bytes maybe after it (see {@link lastWriteEnd}).
   */
  #writeHead: Buffer = Buffer.alloc(0)

  /** A new file, empty, or none yet: nothing to expect but what we write. */
  clear(): void {
    this.#head = Buffer.alloc(0)
    this.#tail = Buffer.alloc(0)
    this.#writeHead = Buffer.alloc(0)
  }

  /** Takes what the file holds now as the expectation (at open, after a change we accept). */
  *adopt(fd: number, size: number): io.Io<Buffer> {
    this.#head = firstLineOf(yield* bytesAt(fd, 0, Math.min(HEAD_BYTES, size)))
    return yield* this.adoptEnd(fd, size)
  }

  /**
   * After a change we accept (a cut, an append): only the end is read again. The first line is the file's
   * identity, and it is kept as we know it — a cut into it leaves only its start — never read again: a
   * `cat other > file` landing between the check that accepted the change and that read would make us take
   * their first line for ours, and write on into their file.
   */
  *adoptEnd(fd: number, size: number): io.Io<Buffer> {
    if (size < this.#head.length) this.#head = this.#head.subarray(0, size)
    this.#tail = yield* bytesAt(fd, size - Math.min(TAIL_BYTES, size), Math.min(TAIL_BYTES, size))
    // The tail is no longer our last write's: that write cannot be looked for by it (see lastWriteEnd) until
    // the next one lands.
    this.#writeHead = Buffer.alloc(0)
    return this.#tail
  }

  /** The file's first line as it is now, not yet taken as the expectation (see {@link takeHead}). */
  *readHead(fd: number, size: number): io.Io<Buffer> {
    return firstLineOf(yield* bytesAt(fd, 0, Math.min(HEAD_BYTES, size)))
  }

  /**
   * A file rewritten in place with this session's records has a first line of its own: `head` (read by
   * {@link readHead} *before* the check that found the file ours, so a rewrite landing after that read is
   * one the next check sees) becomes the expectation.
   */
  takeHead(head: Buffer): void {
    this.#head = head
  }

  /** `bytes` of ours landed at `base`. */
  landed(base: number, bytes: Uint8Array): void {
    if (bytes.length === 0) return
    // Until the first line is complete (it may be written in parts).
    if (base === this.#head.length && this.#head.indexOf(NEWLINE) === -1 && base < HEAD_BYTES) {
      this.#head = firstLineOf(Buffer.concat([this.#head, bytes.subarray(0, HEAD_BYTES - base)]))
    }
    this.#writeHead = Buffer.from(bytes.subarray(0, WRITE_HEAD_BYTES))
    this.#tail =
      bytes.length >= TAIL_BYTES
        ? Buffer.from(bytes.subarray(bytes.length - TAIL_BYTES))
        : Buffer.concat([this.#tail, bytes]).subarray(-TAIL_BYTES)
  }

  /**
   * Before a write: the file still starts with its first bytes, and still ends, at `expected`, with the
   * bytes we left there. The last bytes are read one byte past that end, so a file grown (an append), shrunk
   * or overwritten (other bytes there) fails it; the first bytes catch a file rewritten in place to the same
   * size between this read and our last write (our last bytes then end it again, after theirs).
   *
   * The two reads go one after the other, the end last (what others change most often, read closest to our
   * write). Not at once: the second of two requests handed to libuv's threadpool in the same moment waits
   * for the threadpool's lock while the worker woken by the first holds it, and on a VM that wait is a
   * sleep of 0.3–3 ms on the loop's thread — 17–21 ms per run of the write bench's `big` workload, and its
   * longest stalls (docs/big-records.md, "One read at a time, and a cheaper escape test"). The price: the
   * first line is read one round trip before the write instead of in the same moment, so a rewrite in place
   * that keeps the size and our last bytes and lands in that round trip goes unseen until the next check.
   */
  *endsAsExpected(fd: number, expected: number): io.Io<boolean> {
    const tail = this.#tail
    const head = this.#head
    const atStart = Buffer.allocUnsafe(head.length)
    const gotStart = head.length === 0 ? 0 : yield* io.read(fd, atStart, 0, head.length, 0)
    if (gotStart !== head.length || !atStart.equals(head)) return false
    const atEnd = Buffer.allocUnsafe(tail.length + 1)
    const gotEnd = yield* io.read(fd, atEnd, 0, atEnd.length, expected - tail.length)
    return gotEnd === tail.length && atEnd.subarray(0, gotEnd).equals(tail)
  }

  /** Whether the file open as `fd`, `size` bytes long, ends with the last bytes our writes left. */
  *endsWithOurs(fd: number, size: number): io.Io<boolean> {
    const tail = this.#tail
    if (tail.length === 0 || size < tail.length) return false
    return (yield* bytesAt(fd, size - tail.length, tail.length)).equals(tail)
  }

  /**
   * Where our last write call ends in the file open as `fd`, `size` bytes long, cut or rewritten since we
   * left it, or null when it is not there whole. It may have landed after someone's cut (a race with it) and
   * have someone's bytes after it: an append since, within {@link SHIFT_LIMIT}. Looked for only when that
   * write began one of our records (its first bytes name the record's uuid: found once, unless the record
   * was written again), by those first bytes and its last bytes, its length apart; the one nearest the end
   * when there are more, among the last {@link MAX_CANDIDATES}. A write that began inside a record (a slice
   * of a big one: its first bytes may repeat at every offset) or was only a newline is never looked for.
   */
  *lastWriteEnd(
    fd: number,
    size: number,
    write: { readonly length: number; readonly lineStart: boolean },
  ): io.Io<number | null> {
    const head = this.#writeHead
    const { length } = write
    if (!write.lineStart || !startsARecord(head) || length < head.length || size < length) return null
    // Its last bytes, as far as they are its own (a short write's tail starts in the write before it).
    const ownTail = this.#tail.subarray(this.#tail.length - Math.min(this.#tail.length, length))
    const lowest = Math.max(0, size - length - SHIFT_LIMIT)
    const window = yield* bytesAt(fd, lowest, size - length + head.length - lowest)
    let at = window.lastIndexOf(head)
    for (let tried = 0; at !== -1 && tried < MAX_CANDIDATES; tried++) {
      const end = lowest + at + length
      // Our last bytes there, and nothing of ours after them: a copy of that write earlier in the file (the
      // first, glued, of a record written again) has our later records after it.
      if (
        (yield* bytesAt(fd, end - ownTail.length, ownTail.length)).equals(ownTail) &&
        !holdsARecordLine(yield* bytesAt(fd, end, size - end))
      )
        return end
      at = at > 0 ? window.lastIndexOf(head, at - 1) : -1
    }
    return null
  }

  /** The file open as `fd`, `size` bytes long, against our expectation that it is at least `expected` long. */
  *compare(fd: number, expected: number, size: number): io.Io<ContentMatch> {
    // An empty file filled since by someone else: whose bytes they are is for the ownership check to say.
    if (this.#head.length === 0) return size === 0 ? 'intact' : 'rewritten'
    // A file cut shorter than its first bytes still starts with what is left of them.
    const head = this.#head.subarray(0, Math.min(this.#head.length, size))
    if (!(yield* bytesAt(fd, 0, head.length)).equals(head)) return 'rewritten'
    const tail = this.#tail
    if (size < expected || tail.length === 0) return 'intact'
    if ((yield* bytesAt(fd, expected - tail.length, tail.length)).equals(tail)) return 'intact'
    // Someone appended between our writes (their bytes came before our last one, maybe after it too).
    if ((yield* this.shiftedEnd(fd, expected, size)) !== null) return 'interleaved'
    return 'rewritten'
  }

  /**
   * Where our last bytes end in a file someone appended to around our last write, or null: their bytes
   * before it (an append racing it) moved it on, and more may have been appended after it. Looked for past
   * where we left them, within {@link SHIFT_LIMIT}, the first occurrence (what follows may be anything, a
   * copy of our bytes too); else at the very end of the file.
   */
  *shiftedEnd(fd: number, expected: number, size: number): io.Io<number | null> {
    const tail = this.#tail
    if (tail.length === 0 || size <= expected) return null
    const from = expected - tail.length + 1
    const found = yield* endOfFirst(fd, tail, from, Math.min(size, expected + SHIFT_LIMIT))
    if (found !== null) return found
    return (yield* bytesAt(fd, size - tail.length, tail.length)).equals(tail) ? size : null
  }
}
