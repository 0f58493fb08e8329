import { open, type FileHandle } from 'node:fs/promises'

/** fsyncs a directory so a file just created or renamed in it survives a power cut. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch {
    // Directory fsync is not supported everywhere (e.g. some network file systems); the file itself is synced.
  } finally {
    await handle?.close()
  }
}
