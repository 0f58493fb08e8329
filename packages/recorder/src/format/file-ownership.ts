import { fstatSync, readSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { FORMAT_VERSION, NEWLINE } from './record-format.js'

/**
 * Whose file is this? Anything that writes to, truncates or replaces a transcript (repair, resume, sidecar
 * rebuilds) asks first: a file we did not write is never changed. Readers do not care: they read anything.
 *
 * - `ours`: the first line is a record in our writer's exact envelope (`{"uuid":…,"parentUuid":…,
 *   "sessionId":…,"timestamp":…,"type":…,"v":1`, in that order) with our format version, or the whole file
 *   is one torn line that starts like one (a crash during the very first write).
 * - `empty`: 0 bytes; safe to write.
 * - `foreign`: the first line is something else (another tool's JSONL, binary data), or a record of a newer
 *   format version than this code writes.
 * - `unknown`: the first line starts like ours but its envelope is not (damaged); not safe to write.
 *
 * Leading NUL bytes are skipped first: a power cut on a delayed-allocation file system can zero the first
 * block of a file of ours.
 */
export type FileOwnershipVerdict = 'ours' | 'foreign' | 'empty' | 'unknown'

export interface FileOwnership {
  readonly verdict: FileOwnershipVerdict
  /** One sentence: why. */
  readonly reason: string
}

/** Bytes read from the start of the file: the envelope is a few hundred bytes; a type or session id can be long. */
export const OWNERSHIP_PREFIX_BYTES = 64 * 1024

const OUR_LINE_START = '{"uuid":"'
/** Our writer's envelope, exactly as serialize-record writes it, up to the format version. */
const OUR_ENVELOPE =
  /^\{"uuid":"[^"\\]+","parentUuid":(?:null|"(?:[^"\\]|\\.)*"),"sessionId":"(?:[^"\\]|\\.)*","timestamp":"[^"\\]*","type":"(?:[^"\\]|\\.)*","v":(\d{1,9})[,}]/

/**
 * The verdict for a file whose first bytes are `prefix` (at most {@link OWNERSHIP_PREFIX_BYTES}, fewer only
 * when the file is that short) and whose size is `size`. Pure: callers bring the bytes.
 */
export function ownershipOfPrefix(prefix: Uint8Array, size: number): FileOwnership {
  if (size === 0) return { verdict: 'empty', reason: 'the file is empty' }
  const bytes = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  let start = 0
  while (start < bytes.length && bytes[start] === 0) start++
  if (start === bytes.length) {
    return size > bytes.length
      ? { verdict: 'unknown', reason: `the first ${bytes.length} bytes are NUL bytes` }
      : { verdict: 'unknown', reason: 'the file holds only NUL bytes' }
  }
  const newline = bytes.indexOf(NEWLINE, start)
  const lineEnd = newline === -1 ? bytes.length : newline
  const head = bytes.toString('utf8', start, Math.min(lineEnd, start + OWNERSHIP_PREFIX_BYTES))
  const opening = head.slice(0, OUR_LINE_START.length)
  if (!OUR_LINE_START.startsWith(opening)) {
    return {
      verdict: 'foreign',
      reason: `its first line does not start with a sessiontape record (${JSON.stringify(head.slice(0, 24))}…)`,
    }
  }
  const match = OUR_ENVELOPE.exec(head)
  if (match !== null) {
    const version = Number(match[1])
    if (version === FORMAT_VERSION) {
      return { verdict: 'ours', reason: `its first line is a sessiontape record (format v${version})` }
    }
    return {
      verdict: 'foreign',
      reason: `its first record has format version v${version}; this code writes v${FORMAT_VERSION} only`,
    }
  }
  const wholeFileIsOneLine = newline === -1 && size === bytes.length
  if (wholeFileIsOneLine) {
    return {
      verdict: 'ours',
      reason:
        'the file is one torn line that starts like a sessiontape record (a crash during the first write)',
    }
  }
  return {
    verdict: 'unknown',
    reason: 'its first line starts like a sessiontape record but its envelope is not one (damaged)',
  }
}

/** {@link ownershipOfPrefix} of the file at `filePath` (read, never written; a symlink is followed). */
export async function fileOwnership(filePath: string): Promise<FileOwnership> {
  const handle = await open(filePath, 'r')
  try {
    const { size } = await handle.stat()
    const buffer = Buffer.alloc(Math.min(size, OWNERSHIP_PREFIX_BYTES))
    let got = 0
    while (got < buffer.length) {
      const { bytesRead } = await handle.read(buffer, got, buffer.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return ownershipOfPrefix(buffer.subarray(0, got), size)
  } finally {
    await handle.close()
  }
}

/** {@link fileOwnership}, synchronously, for an open descriptor (the writer's resume path). */
export function fileOwnershipSync(fd: number): FileOwnership {
  const { size } = fstatSync(fd)
  const buffer = Buffer.alloc(Math.min(size, OWNERSHIP_PREFIX_BYTES))
  let got = 0
  while (got < buffer.length) {
    const bytesRead = readSync(fd, buffer, got, buffer.length - got, got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return ownershipOfPrefix(buffer.subarray(0, got), size)
}

const SESSION_OF_ENVELOPE =
  /^\{"uuid":"[^"\\]+","parentUuid":(?:null|"(?:[^"\\]|\\.)*"),"sessionId":"([^"\\]*)"/

/**
 * The session id named by the first line of a file whose first bytes are `prefix` (null when the line is
 * not our envelope as far as the session id, e.g. a torn first line).
 */
export function sessionOfPrefix(prefix: Uint8Array): string | null {
  const bytes = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  let start = 0
  // Leading NUL bytes are skipped, as the ownership check does (a power cut can zero the first block).
  while (start < bytes.length && bytes[start] === 0) start++
  const newline = bytes.indexOf(NEWLINE, start)
  const line = bytes.toString('utf8', start, newline === -1 ? bytes.length : newline)
  return SESSION_OF_ENVELOPE.exec(line)?.[1] ?? null
}
