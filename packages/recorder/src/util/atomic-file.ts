import { randomBytes } from 'node:crypto'
import fs, { constants } from 'node:fs'
import path from 'node:path'

/**
 * Replaces a small file atomically: the content goes to a new temporary file beside it, which a rename then
 * puts in place, so a reader sees the old content or the new, never a mix. The temporary file is created
 * new (O_EXCL) and never through a symlink (O_NOFOLLOW); the rename replaces the directory entry and never
 * writes through a link planted at the name. Plain `fs` calls and no dependency: it bundles everywhere and
 * loads nothing (write-file-atomic, used before, needs `__filename`, undefined in an ESM bundle).
 */

export interface AtomicWriteOptions {
  /** Permission bits of the new file. */
  readonly mode: number
  /** fsync the file before the rename (a rebuildable index can skip it). */
  readonly fsync: boolean
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/** `.<name>.<random>.tmp` in the same directory: a rename never crosses file systems. */
function tempPathOf(filePath: string): string {
  return path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`,
  )
}

export async function writeFileAtomic(
  filePath: string,
  content: string,
  options: AtomicWriteOptions,
): Promise<void> {
  const tempPath = tempPathOf(filePath)
  const handle = await fs.promises.open(tempPath, TEMP_FLAGS, options.mode)
  let renamed = false
  try {
    try {
      await handle.writeFile(content)
      if (options.fsync) await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.promises.rename(tempPath, filePath)
    renamed = true
  } finally {
    if (!renamed) await fs.promises.rm(tempPath, { force: true })
  }
}

export function writeFileAtomicSync(filePath: string, content: string, options: AtomicWriteOptions): void {
  const tempPath = tempPathOf(filePath)
  const fd = fs.openSync(tempPath, TEMP_FLAGS, options.mode)
  let renamed = false
  try {
    try {
      fs.writeFileSync(fd, content)
      if (options.fsync) fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(tempPath, filePath)
    renamed = true
  } finally {
    if (!renamed) fs.rmSync(tempPath, { force: true })
  }
}
