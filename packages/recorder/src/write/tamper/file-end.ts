import type { ExpectedContent } from './expected-content.js'
import type * as io from '../loop/io.js'
import { NEWLINE } from '../../format/record-format.js'

/**
 * Where the open transcript ends, as our writes and our checks left it: its size, the end of its last
 * complete line, the line end at which the path was last found to name it, whether our next write must
 * first end someone else's unfinished line, and what our last write call was. This file's one job is
 * keeping those consistent as the file is opened, written, checked and found changed. It holds no
 * descriptor: the Transcript (transcript.ts), its one owner, passes one in when the new end must be read.
 */

export class FileEnd {
  readonly #expected: ExpectedContent
  // Size of the file as our writes (and what it held when opened) left it.
  #size = 0
  // End of the last complete line in the file: what follows may be a record of ours written in part.
  #lineEnd = 0
  // A line end at which the path was last found to name this file; the bytes beyond it are the ones a
  // replacement could take away from the path.
  #verifiedLineEnd = 0
  // The file ended inside a line that is not ours (a torn tail) when opened: the next write starts with one.
  #needsNewline = false
  // Our last write call: how many bytes landed, and whether they began a line of ours (so a line of someone
  // else's that came just before them, unfinished, glued our first record to it: see the Transcript's #rewriteGlued).
  #lastWrite = { length: 0, lineStart: false }

  constructor(expected: ExpectedContent) {
    this.#expected = expected
  }

  get size(): number {
    return this.#size
  }

  get verifiedLineEnd(): number {
    return this.#verifiedLineEnd
  }

  get needsNewline(): boolean {
    return this.#needsNewline
  }

  get lastWrite(): { readonly length: number; readonly lineStart: boolean } {
    return this.#lastWrite
  }

  /** Just opened, `size` bytes long: all of it is taken as verified. */
  opened(size: number, needsNewline: boolean): void {
    this.#size = size
    this.#lineEnd = size
    this.#verifiedLineEnd = size
    this.#needsNewline = needsNewline
  }

  /** `bytes` of ours landed at the end. */
  landed(bytes: Uint8Array): void {
    if (bytes.length > 0) this.#lastWrite = { length: bytes.length, lineStart: this.#size === this.#lineEnd }
    this.#expected.landed(this.#size, bytes)
    this.#size += bytes.length
  }

  /** The path was found to name this file, as our writes left it. */
  verified(): void {
    this.#verifiedLineEnd = this.#lineEnd
  }

  /** The last complete line now ends at the end of the file. */
  lineEnded(): void {
    this.#lineEnd = this.#size
  }

  /** The newline that ends someone's torn line was written: ours start on a line of their own. */
  newlineWritten(): void {
    this.#needsNewline = false
    this.#lineEnd = this.#size
  }

  /**
   * Our last write (one that began a line: the only kind looked for) was found ending at `ourEnd` in a file
   * cut since: it landed where the cut left the end. No check found the path naming the file with it in it,
   * so should the file leave the path, the carry from it starts no later than that write (a record glued to
   * the cut line starts there: the rest of that line is skipped).
   */
  lastWriteLandedAfterCut(ourEnd: number): void {
    this.#verifiedLineEnd = Math.min(this.#verifiedLineEnd, ourEnd - this.#lastWrite.length)
  }

  /** The file ends inside a line (a cut line carried): our next record goes on a line of its own. */
  endsInsideLine(): void {
    this.#needsNewline = true
  }

  /** The file is `size` bytes long now, and writing goes on after whatever ends it, on a line of its own. */
  *adopt(fd: number, size: number, allVerified: boolean): io.Io<void> {
    this.#size = size
    this.#lineEnd = allVerified ? size : Math.min(this.#lineEnd, size)
    this.#verifiedLineEnd = allVerified ? size : Math.min(this.#verifiedLineEnd, size)
    const tail = yield* this.#expected.adoptEnd(fd, size)
    // Whoever changed it may have left it ending inside a line: ours start on a line of their own.
    this.#needsNewline = tail.length > 0 && tail[tail.length - 1] !== NEWLINE
  }
}
