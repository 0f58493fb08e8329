import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'
import { QUARANTINE_NAME_ATTEMPTS, quarantinePathFor } from './quarantine-name.js'
import { checkValidLength, type RepairTornTailOptions, type TornTailRepair } from './repair-torn-tail.js'

const COPY_CHUNK = 1024 * 1024
const QUARANTINE_MODE = 0o600

/**
 * Synchronous twin of {@link repairTornTail}, for a caller that must repair before it returns (a
 * synchronous constructor). Same order: durable quarantine copy first, then truncate.
 */
export function repairTornTailSync(filePath: string, options: RepairTornTailOptions): TornTailRepair {
  const validLength = checkValidLength(options)
  const fd = openSync(filePath, constants.O_RDWR | constants.O_NOFOLLOW)
  try {
    const size = fstatSync(fd).size
    if (size <= validLength) return { quarantinePath: null, quarantinedBytes: 0 }
    const quarantinePath = copyToQuarantine(fd, filePath, validLength, size)
    syncDirectory(path.dirname(filePath))
    ftruncateSync(fd, validLength)
    fsyncSync(fd)
    return { quarantinePath, quarantinedBytes: size - validLength }
  } finally {
    closeSync(fd)
  }
}

function copyToQuarantine(fd: number, filePath: string, from: number, to: number): string {
  const now = new Date()
  for (let attempt = 0; attempt < QUARANTINE_NAME_ATTEMPTS; attempt++) {
    const quarantinePath = quarantinePathFor(filePath, now, attempt)
    let target: number
    try {
      target = openSync(quarantinePath, 'wx', QUARANTINE_MODE)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    try {
      const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, to - from))
      for (let at = from; at < to;) {
        const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, to - at), at)
        if (bytesRead === 0) break
        for (let written = 0; written < bytesRead;)
          written += writeSync(target, buffer, written, bytesRead - written)
        at += bytesRead
      }
      fsyncSync(target)
    } finally {
      closeSync(target)
    }
    return quarantinePath
  }
  throw new Error(`Could not find a free quarantine file name next to ${filePath}`)
}

function syncDirectory(directory: string): void {
  let fd: number | undefined
  try {
    fd = openSync(directory, 'r')
    fsyncSync(fd)
  } catch {
    // Directory fsync is not supported everywhere (e.g. some network file systems); the file itself is synced.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
