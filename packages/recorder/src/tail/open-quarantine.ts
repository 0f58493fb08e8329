import { open, type FileHandle } from 'node:fs/promises'
import { QUARANTINE_NAME_ATTEMPTS, quarantinePathFor } from './quarantine-name.js'

/** Quarantine files hold transcript bytes, so they get the transcript's private mode. */
const QUARANTINE_MODE = 0o600

/**
 * Creates a new quarantine file next to `filePath` (`wx`: an earlier quarantine is never overwritten) and
 * returns it open for writing; the caller writes, syncs and closes it.
 */
export async function openNewQuarantine(
  filePath: string,
): Promise<{ readonly handle: FileHandle; readonly quarantinePath: string }> {
  const now = new Date()
  for (let attempt = 0; attempt < QUARANTINE_NAME_ATTEMPTS; attempt++) {
    const quarantinePath = quarantinePathFor(filePath, now, attempt)
    try {
      return { handle: await open(quarantinePath, 'wx', QUARANTINE_MODE), quarantinePath }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  throw new Error(`Could not find a free quarantine file name next to ${filePath}`)
}
