/**
 * A line longer than the reader's bound (`CATALOG_MAX_LINE_BYTES`, 16 MiB) is never parsed: one string of
 * it would be most of a process's memory budget. It is still searched, as text, in bounded chunks read
 * straight from the file: what a search can say of it is whether its bytes hold every term (a line of
 * JSON: the text of its strings as written, escapes included — a term holding a quote, a backslash or a
 * newline is not found in it), not which event or role a match is in. The index takes the same chunks'
 * trigrams, so such a line can never rule its file out.
 */
import { open } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'

/** Bytes read at once from a long line: the memory such a line costs, whatever its length. */
export const LONG_LINE_CHUNK_BYTES = 1024 * 1024

/**
 * Calls `each` with the lower-cased text of `length` bytes of `file` from `offset`, one chunk at a time, each
 * chunk's text starting with the last `overlap` characters of the one before (a match across a boundary is
 * whole in one of them). A multi-byte character cut by a chunk's end is decoded with the next chunk.
 */
export async function forEachChunk(
  file: string,
  offset: number,
  length: number,
  overlap: number,
  each: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.allocUnsafe(Math.min(LONG_LINE_CHUNK_BYTES, Math.max(1, length)))
    const decoder = new StringDecoder('utf8')
    let carry = ''
    let at = offset
    const end = offset + length
    while (at < end) {
      signal?.throwIfAborted()
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at)
      // Shorter than the line was (the file was cut meanwhile): what is there was searched.
      if (bytesRead === 0) break
      at += bytesRead
      const text = carry + decoder.write(buffer.subarray(0, bytesRead)).toLowerCase()
      each(text)
      carry = overlap > 0 ? text.slice(-overlap) : ''
    }
    const rest = decoder.end()
    if (rest !== '') each(carry + rest.toLowerCase())
  } finally {
    await handle.close()
  }
}

/** Where a long line holds every term: the chunk text of the first term's first match, and its index. */
export interface LongLineMatch {
  readonly text: string
  readonly index: number
}

/**
 * Whether `length` bytes of `file` from `offset` hold every one of `terms` (lower-cased), read in chunks;
 * the first term's first match when they do.
 */
export async function longLineMatch(
  file: string,
  offset: number,
  length: number,
  terms: readonly string[],
  signal?: AbortSignal,
): Promise<LongLineMatch | undefined> {
  const overlap = Math.max(0, ...terms.map((term) => term.length - 1))
  const found = new Set<string>()
  let first: LongLineMatch | undefined
  await forEachChunk(
    file,
    offset,
    length,
    overlap,
    (text) => {
      for (const term of terms) {
        if (found.has(term)) continue
        const index = text.indexOf(term)
        if (index === -1) continue
        found.add(term)
        if (term === terms[0]) first = { text, index }
      }
    },
    signal,
  )
  return found.size === terms.length ? first : undefined
}
