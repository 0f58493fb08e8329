import fs from 'node:fs'

import { errorCode } from './transient-errors.js'

/**
 * fsync(2) of a file makes its data durable, not its name: "an explicit fsync() on a file descriptor for
 * the directory is also needed" for a file just created, renamed or linked there (or a directory just made
 * there) to survive a power cut. These open the directory read-only and fsync it.
 *
 * A file system that cannot fsync a directory at all (some network and FUSE file systems answer EINVAL or
 * ENOTSUP) is not an error: there is nothing more this process can do, and the file itself is synced. Any
 * other failure (EIO above all: the entry may not be on disk) is thrown to the caller to report.
 */
const UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EISDIR'])

// O_DIRECTORY: the name must still be a directory (a planted file or symlink to one is not synced instead).
const DIR_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0)

function unsupported(error: unknown): boolean {
  return UNSUPPORTED.has(errorCode(error) ?? '')
}

/** fsyncs `directory` so the entries just made in it survive a power cut. */
export async function syncDirectory(directory: string): Promise<void> {
  const fd = await new Promise<number>((resolve, reject) =>
    fs.open(directory, DIR_FLAGS, (error, opened) => (error ? reject(error) : resolve(opened))),
  )
  try {
    await new Promise<void>((resolve, reject) =>
      fs.fsync(fd, (error) => (error && !unsupported(error) ? reject(error) : resolve())),
    )
  } finally {
    await new Promise<void>((resolve) =>
      // The sync's outcome is what matters; a failed close of a read-only descriptor loses nothing.
      fs.close(fd, () => resolve()),
    )
  }
}

/** {@link syncDirectory}, synchronously (flushSync, the overflow policy, the exit drain). */
export function syncDirectorySync(directory: string): void {
  const fd = fs.openSync(directory, DIR_FLAGS)
  try {
    fs.fsyncSync(fd)
  } catch (error) {
    if (!unsupported(error)) throw error
  } finally {
    try {
      fs.closeSync(fd)
    } catch {
      // A failed close of a read-only descriptor loses nothing.
    }
  }
}
