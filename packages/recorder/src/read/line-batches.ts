import { open } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'

/** One read's worth of complete lines. */
export interface LineBatch {
  readonly lines: readonly string[]
  /** 1-based number of `lines[0]`. */
  readonly firstLine: number
}

/** The end of the file: the bytes after the last newline, if any (a torn tail or a live write). */
export interface LineTail {
  readonly text: string
  readonly line: number
}

/**
 * Read size. Large enough that per-read overhead vanishes next to JSON.parse, small enough that memory
 * stays flat: the reader holds one chunk plus the line being assembled.
 */
export const READ_CHUNK = 1024 * 1024

/**
 * Reads a file as batches of complete lines, in order, with constant memory (one chunk and the longest
 * line). Calls `onTail` once at the end with the unterminated last line, if there is one.
 */
export async function* lineBatches(
  filePath: string,
  onTail: (tail: LineTail) => void,
  signal?: AbortSignal,
): AsyncGenerator<LineBatch> {
  const handle = await open(filePath, 'r')
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK)
    const decoder = new StringDecoder('utf8')
    // The line being assembled across reads; kept as parts so a huge line is joined once, not per read.
    let partial: string[] = []
    let nextLine = 1
    for (;;) {
      signal?.throwIfAborted()
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null)
      if (bytesRead === 0) break
      const text = decoder.write(buffer.subarray(0, bytesRead))
      let newline = text.indexOf('\n')
      if (newline === -1) {
        partial.push(text)
        continue
      }
      const lines: string[] = []
      partial.push(text.slice(0, newline))
      lines.push(partial.length === 1 ? partial[0]! : partial.join(''))
      partial = []
      let start = newline + 1
      while ((newline = text.indexOf('\n', start)) !== -1) {
        lines.push(text.slice(start, newline))
        start = newline + 1
      }
      if (start < text.length) partial.push(text.slice(start))
      yield { lines, firstLine: nextLine }
      nextLine += lines.length
    }
    const rest = decoder.end()
    if (rest.length > 0) partial.push(rest)
    if (partial.length > 0) onTail({ text: partial.join(''), line: nextLine })
  } finally {
    await handle.close()
  }
}
