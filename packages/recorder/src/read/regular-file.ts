import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { SessiontapeError } from '../errors.js'

// Every read of a file we did not make goes through here: only a regular file is a transcript.

/**
 * The whole of the regular file at `filePath` as text, or, when it holds more than `maxBytes`, how many bytes
 * it held at least (nothing past `maxBytes + 1` is read). Read through one descriptor opened as
 * {@link openRegularFile} does: a file that grows after its size was looked at cannot take more memory than
 * the bound, and a FIFO or a device is refused rather than read.
 */
export async function readWholeFile(
  filePath: string,
  maxBytes: number,
): Promise<{ readonly text: string; readonly size: number } | { readonly tooLong: number }> {
  const handle = await openRegularFile(filePath)
  try {
    const { size } = await handle.stat()
    if (size > maxBytes) return { tooLong: size }
    // One byte past the size the file had: a file that grew since is seen growing, and stopped at the bound.
    let buffer = Buffer.allocUnsafe(size + 1)
    let filled = 0
    for (;;) {
      if (filled === buffer.length) {
        if (buffer.length > maxBytes) return { tooLong: filled }
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1))
        buffer.copy(larger, 0, 0, filled)
        buffer = larger
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { text: buffer.toString('utf8', 0, filled), size: filled }
  } finally {
    await handle.close()
  }
}

/**
 * `O_NONBLOCK` because opening a FIFO for reading blocks until someone opens it for writing, and it blocks in
 * libuv's thread pool, where not even `process.exit()` can end it (the exit waits for the thread): a FIFO
 * planted where a session file is expected would hang the reader and its process for good. On a regular file
 * the flag changes nothing; the file type is checked on the descriptor itself, so a path swapped after a
 * `stat()` cannot slip a FIFO or `/dev/zero` (a line that never ends) past it.
 */
export async function openRegularFile(filePath: string): Promise<FileHandle> {
  // Windows has no O_NONBLOCK (undefined there) and no FIFOs that block an open.
  const handle = await open(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  try {
    const info = await handle.stat()
    if (info.isFile()) return handle
    if (info.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${filePath}'`), {
        code: 'EISDIR',
        syscall: 'read',
        path: filePath,
      })
    }
    throw new SessiontapeError(
      'ERR_NOT_A_FILE',
      `${filePath} is not a regular file (a FIFO, a socket or a device); it is not read as a transcript`,
    )
  } catch (error) {
    await handle.close()
    throw error
  }
}
