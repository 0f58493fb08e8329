import type { Stats } from 'node:fs'
import { stat } from 'node:fs/promises'

/** What the catalog and the viewer keep of a file's stat: enough to see that it changed, and what it is. */
export interface FileStat {
  readonly size: number
  readonly mtimeMs: number
  /** The change time: unlike mtime, no one can set it back (a rewrite with its mtime restored still shows). */
  readonly ctimeMs: number
  readonly ino: number
  readonly isFile: boolean
}

/** The fields of `info` that we keep. */
export function fileStatOf(info: Stats): FileStat {
  return {
    size: info.size,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    ino: info.ino,
    isFile: info.isFile(),
  }
}

/** `file`'s stat (symlinks followed), or undefined when it is gone or cannot be stat'ed: the caller notes it. */
export async function statOf(file: string): Promise<FileStat | undefined> {
  try {
    return fileStatOf(await stat(file))
  } catch {
    // Gone (between a listing and this stat, say), or not ours to read: undefined says so.
    return undefined
  }
}
