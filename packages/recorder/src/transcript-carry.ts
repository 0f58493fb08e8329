/**
 * Bytes written to a transcript that was then deleted or replaced, since the last check that found it at
 * the path: read back from the old file (still open) and copied into the new one before anything else.
 */
export interface Carry {
  readonly fd: number
  /** A line boundary of the old file: the new one starts with whole lines. */
  readonly start: number
  readonly end: number
  /** Where, relative to `start`, the last complete line of the carried bytes ends. */
  readonly lineEnd: number
  /** Bytes already copied into the current transcript. */
  copied: number
}

// Read-back buffer when carrying bytes over from a replaced transcript.
const CARRY_CHUNK = 1024 * 1024

/**
 * What must be carried out of a replaced transcript still open as `fd`: the bytes beyond `verifiedOffset`
 * (a line boundary at or before its size when the path was last found to name it), or null when there are
 * none. `lineStart` is the end of the last complete line written to it.
 */
export function carryFrom(
  fd: number,
  verifiedOffset: number,
  fileSize: number,
  lineStart: number,
): Carry | null {
  if (fileSize <= verifiedOffset) return null
  return { fd, start: verifiedOffset, end: fileSize, lineEnd: lineStart - verifiedOffset, copied: 0 }
}

/** The read-back buffer of one carry: one chunk, or less when fewer bytes are carried. */
export function carryBuffer(carry: Carry): Buffer {
  return Buffer.allocUnsafe(Math.min(CARRY_CHUNK, carry.end - carry.start))
}

/** Bytes still to be copied. */
export function carryRemaining(carry: Carry): number {
  return carry.end - carry.start - carry.copied
}

/**
 * The end of the last complete line of the carried bytes in the new transcript, once the copy has left it
 * `fileSize` bytes long (a half-written record may follow that line).
 */
export function carriedLineStart(carry: Carry, fileSize: number): number {
  return fileSize - carry.copied + Math.min(carry.lineEnd, carry.copied)
}
