import type { FileHandle } from 'node:fs/promises'

/** Files up to this size are read from their start, so `tail` can number their lines. */
export const READ_WHOLE_BELOW_BYTES = 1024 * 1024
const CHUNK = 64 * 1024
const NEWLINE = 0x0a

/**
 * Where `tail -n <count>` starts reading: the start of the last `count` complete lines (plus whatever
 * follows the last newline), found by reading backwards from the end in chunks, so the cost depends on
 * the size of those lines, not of the file. 0 for a small file (read whole: its lines can be numbered).
 */
export async function tailStart(handle: FileHandle, size: number, count: number): Promise<number> {
  if (size <= READ_WHOLE_BELOW_BYTES) return 0
  const buffer = Buffer.allocUnsafe(CHUNK)
  // Newlines seen so far from the end; the last byte's newline (if any) ends the last line, not a count.
  let newlines = 0
  let end = size
  let lastByte = true
  while (end > 0) {
    const from = Math.max(0, end - CHUNK)
    const { bytesRead } = await handle.read(buffer, 0, end - from, from)
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (buffer[i] !== NEWLINE) {
        lastByte = false
        continue
      }
      if (lastByte) {
        lastByte = false
        continue
      }
      if (++newlines > count) return from + i + 1
    }
    end = from
  }
  return 0
}
