import { type RecorderError, RecorderErrorCode } from '../errors.js'
import { findLineEndAfterUuid, lastUuidOf } from './file-scan.js'
import * as io from './io.js'

/**
 * Bytes written to a transcript that was then deleted, renamed or replaced, since the path was last found
 * to name it: they are copied into the file now at the path before anything else goes there. The old
 * descriptor stays open for that (the only place those bytes are left); the transcript owns it.
 */
export interface Carry {
  readonly fd: number
  /** Where the copy starts: a line boundary of the old file. */
  start: number
  readonly end: number
  /** Bytes already copied into the current transcript. */
  copied: number
}

// Read-back buffer when carrying bytes from a replaced transcript into its successor.
const CARRY_CHUNK = 1024 * 1024

/**
 * The file now at the path already holds records (a copy of the old one put in its place, say): the carry
 * starts right after the last of them, so no record is written twice, whatever was verified when.
 */
export function* planCarry(carry: Carry, fd: number, size: number): io.Io<void> {
  carry.copied = 0
  if (size === 0) return
  const lastUuid = yield* lastUuidOf(fd, size)
  if (lastUuid === null) return
  const lineEnd = yield* findLineEndAfterUuid(carry.fd, lastUuid, carry.end)
  if (lineEnd !== null) carry.start = Math.min(lineEnd, carry.end)
}

/** Reads the carried bytes back from the old file and hands them to `append`, in chunks. */
export function* copyCarry(
  carry: Carry,
  append: (buffer: Uint8Array, from: number, progress: (bytes: number) => void) => io.Io<void>,
  error: (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError,
): io.Io<void> {
  const length = carry.end - carry.start
  const buffer = Buffer.allocUnsafe(Math.min(CARRY_CHUNK, Math.max(length, 1)))
  while (carry.copied < length) {
    const want = Math.min(buffer.length, length - carry.copied)
    let got: number
    try {
      got = yield* io.read(carry.fd, buffer, 0, want, carry.start + carry.copied)
    } catch (cause) {
      throw error(RecorderErrorCode.WRITE_FAILED, 'could not read back the replaced transcript', cause)
    }
    // The old file shrank under our descriptor (someone truncated it too): carry what is there.
    if (got === 0) return
    yield* append(buffer.subarray(0, got), 0, (bytes) => (carry.copied += bytes))
  }
}
