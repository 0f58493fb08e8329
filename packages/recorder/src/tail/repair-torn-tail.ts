import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { openNewQuarantine } from './open-quarantine.js'
import { syncDirectory } from './sync-directory.js'
import { describeValue } from '../read/describe-value.js'

export interface RepairTornTailOptions {
  /** Bytes to keep (from {@link inspectTailSync}); everything after moves to the quarantine file. */
  readonly validLength: number
}

export interface TornTailRepair {
  /** The sidecar that now holds the torn bytes, or null when there was nothing to repair. */
  readonly quarantinePath: string | null
  readonly quarantinedBytes: number
}

/** Copy in chunks so a huge garbage tail never needs one huge buffer. */
const COPY_CHUNK = 1024 * 1024

/**
 * Moves everything after `validLength` to a new quarantine sidecar next to the transcript (never deleted),
 * makes that copy durable, and only then truncates the transcript to `validLength`. A crash in between
 * leaves the torn bytes in both places, never in neither. Nothing to repair → a no-op result.
 */
export async function repairTornTail(
  filePath: string,
  options: RepairTornTailOptions,
): Promise<TornTailRepair> {
  const validLength = checkValidLength(options)
  const transcript = await open(filePath, constants.O_RDWR | constants.O_NOFOLLOW)
  try {
    const size = (await transcript.stat()).size
    if (size <= validLength) return { quarantinePath: null, quarantinedBytes: 0 }
    const quarantinePath = await copyToQuarantine(transcript, filePath, validLength, size)
    await syncDirectory(path.dirname(filePath))
    await transcript.truncate(validLength)
    await transcript.datasync()
    return { quarantinePath, quarantinedBytes: size - validLength }
  } finally {
    await transcript.close()
  }
}

export function checkValidLength(options: RepairTornTailOptions): number {
  const validLength: unknown = options?.validLength
  if (!(typeof validLength === 'number' && Number.isSafeInteger(validLength) && validLength >= 0)) {
    throw new TypeError(
      `Expected \`validLength\` to be a non-negative integer, got \`${describeValue(validLength)}\` (${typeof validLength})`,
    )
  }
  return validLength
}

async function copyToQuarantine(
  transcript: FileHandle,
  filePath: string,
  from: number,
  to: number,
): Promise<string> {
  const { handle: target, quarantinePath } = await openNewQuarantine(filePath)
  try {
    const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, to - from))
    for (let at = from; at < to;) {
      const { bytesRead } = await transcript.read(buffer, 0, Math.min(buffer.length, to - at), at)
      if (bytesRead === 0) break
      for (let written = 0; written < bytesRead;) {
        written += (await target.write(buffer, written, bytesRead - written)).bytesWritten
      }
      at += bytesRead
    }
    await target.sync()
  } finally {
    await target.close()
  }
  return quarantinePath
}
