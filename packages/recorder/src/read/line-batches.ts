import { constants } from 'node:buffer'
import { openByteSource, type SourceDamage } from './byte-source.js'
import { NEWLINE } from '../format/record-format.js'

/** One read's worth of complete lines. */
export interface LineBatch {
  readonly lines: readonly string[]
  /** 1-based number of `lines[0]`. */
  readonly firstLine: number
  /** With the `raw` option: each line's bytes as read (decoding replaces invalid UTF-8); else empty. */
  readonly raw: readonly Buffer[]
  /** `starts[i]` is the byte offset in the file where `lines[i]` starts. */
  readonly starts: readonly number[]
  /** `lengths[i]` is the number of bytes of `lines[i]` (without its newline). */
  readonly lengths: readonly number[]
}

/** The end of the file: the bytes after the last newline, if any (a torn tail or a live write). */
export interface LineTail {
  readonly text: string
  readonly line: number
  /** The same bytes as read (a cut can split a multi-byte character, which `text` cannot hold). */
  readonly bytes: Buffer
  /** Byte offset in the file where the tail starts. */
  readonly offset: number
}

export interface LineBatchOptions {
  /** Called once at the end with the unterminated last line, if there is one. */
  readonly onTail: (tail: LineTail) => void
  /**
   * Called, in line order, for a line longer than `maxLineBytes` instead of yielding it; `terminated` is
   * false when it is the unterminated last line.
   */
  readonly onOverlong: (line: number, bytes: number, terminated: boolean, offset: number) => void
  readonly signal?: AbortSignal | undefined
  /** Also yield each line's bytes, for a caller that must copy lines byte for byte. @default false */
  readonly raw?: boolean
  /** Start reading at this byte offset (which must be the start of a line). @default 0 */
  readonly startOffset?: number
  /** Line number of the line at `startOffset`. @default 1 */
  readonly firstLine?: number
  /** Lines longer than this are skipped unread (the CLI and the catalog bound memory with it); the default is the longest line a string can be decoded from. */
  readonly maxLineBytes?: number | undefined
  /**
   * Called once at the end when a compressed file's content could not be read to its end (cut off,
   * corrupt, a window over the bound), with the offset where its content stopped.
   */
  readonly onDamage?: (damage: SourceDamage, offset: number) => void
}

/**
 * Read size. Measured on 1 KB chat records: 256 KiB reads beat both 64 KiB (more reads) and 1 MiB (more
 * memory, worse cache use), and keep the reader's footprint small. A longer line grows the buffer.
 */
export const READ_CHUNK = 256 * 1024
/**
 * Node cannot decode more UTF-8 bytes than this into one string (`ERR_STRING_TOO_LONG`), so a longer line
 * can never be parsed: it is skipped and reported rather than buffered (a file of NULs or binary garbage
 * with no newline would otherwise be read into memory whole, then fail).
 */
export const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH

/**
 * Reads a file (or a `.zst` file's decompressed content, see ByteSource) as batches of complete lines, in order, with bounded memory (one buffer, as large as the
 * longest line if that is more than a chunk, and never more than `maxLineBytes`). Lines are split on
 * bytes and each is decoded on its own, so every line is a flat string (fast for JSON.parse) and a
 * multi-byte character is never cut in two.
 */
export async function* lineBatches(filePath: string, options: LineBatchOptions): AsyncGenerator<LineBatch> {
  const { onTail, onOverlong, signal } = options
  const raw = options.raw === true
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES
  const source = await openByteSource(filePath, options.startOffset ?? 0)
  try {
    let buffer = Buffer.allocUnsafe(READ_CHUNK)
    // Bytes at the start of `buffer` that belong to a line whose newline has not been read yet.
    let carry = 0
    // File offset of `buffer[0]`.
    let base = options.startOffset ?? 0
    // Bytes of an over-long line dropped so far while looking for its newline; -1 when not skipping.
    let skipped = -1
    // File offset where the over-long line being skipped starts.
    let skipStart = 0
    let nextLine = options.firstLine ?? 1
    for (;;) {
      signal?.throwIfAborted()
      if (carry === buffer.length) {
        // Grows to at most one byte past the limit, so a line that reaches it is noticed and skipped.
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxLineBytes + 1))
        buffer.copy(bigger, 0, 0, carry)
        buffer = bigger
      }
      const bytesRead = await source.read(buffer, carry, buffer.length - carry)
      if (bytesRead === 0) break
      const end = carry + bytesRead
      let lines: string[] = []
      let rawLines: Buffer[] = []
      let starts: number[] = []
      let lengths: number[] = []
      let start = 0
      let newline = buffer.indexOf(NEWLINE, carry)
      if (skipped !== -1) {
        if (newline === -1 || newline >= end) {
          skipped += bytesRead
          base += end
          continue
        }
        onOverlong(nextLine++, skipped + newline, true, skipStart)
        skipped = -1
        start = newline + 1
        newline = buffer.indexOf(NEWLINE, start)
      }
      while (newline !== -1 && newline < end) {
        if (newline - start > maxLineBytes) {
          // Report it in order: the lines before it go out first.
          if (lines.length > 0) yield { lines, firstLine: nextLine, raw: rawLines, starts, lengths }
          nextLine += lines.length
          lines = []
          rawLines = []
          starts = []
          lengths = []
          onOverlong(nextLine++, newline - start, true, base + start)
        } else {
          lines.push(buffer.toString('utf8', start, newline))
          starts.push(base + start)
          lengths.push(newline - start)
          if (raw) rawLines.push(Buffer.from(buffer.subarray(start, newline)))
        }
        start = newline + 1
        newline = buffer.indexOf(NEWLINE, start)
      }
      carry = end - start
      if (carry > maxLineBytes) {
        skipped = carry
        skipStart = base + start
        carry = 0
        base += end
      } else {
        if (start > 0 && carry > 0) buffer.copy(buffer, 0, start, end)
        base += start
      }
      if (lines.length > 0) {
        yield { lines, firstLine: nextLine, raw: rawLines, starts, lengths }
        nextLine += lines.length
      }
    }
    if (skipped !== -1) onOverlong(nextLine, skipped, false, skipStart)
    else if (carry > 0) {
      const bytes = Buffer.from(buffer.subarray(0, carry))
      onTail({ text: bytes.toString('utf8'), line: nextLine, bytes, offset: base })
    }
    const damage = source.damage
    if (damage !== undefined) options.onDamage?.(damage, skipped !== -1 ? skipStart + skipped : base + carry)
  } finally {
    await source.close()
  }
}
