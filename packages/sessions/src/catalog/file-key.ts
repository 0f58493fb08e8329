import { stat as statWithCallback, statSync, type BigIntStats } from 'node:fs'

/**
 * What the catalog keeps of a session file's `stat` to tell that it changed: device, inode, size, and the
 * modification and change times in nanoseconds (`bigint` stats: milliseconds as a double lose the digits
 * that tell two writes in the same millisecond apart, and a 64-bit inode can exceed a double's integers).
 *
 * A file is read again when any of them differs. The change time cannot be set back by a user (a rewrite
 * with its mtime restored by `touch -r` still shows), and a rename-replace shows as a new inode. What no
 * key can see: a rewrite in place, of the same size, within the same tick of the clock the filesystem
 * stamps times with (Linux takes them from a coarse clock, a few milliseconds; FAT keeps 2 s, ext3 1 s) as
 * the catalog's previous read, or by someone who can set the clock back (root). The catalog then shows
 * the previous summary until the file changes again. Search reads every candidate file, so a hit is always
 * the file's own text; only the index could rule out such a file whose new text holds the term.
 */
export interface FileKey {
  /** `dev:ino:size:mtimeNs:ctimeNs`: equal keys, the same file unchanged. */
  readonly key: string
  /** `dev:ino`: the same file (an append keeps it; a rename-replace does not). */
  readonly id: string
  readonly size: number
  readonly mtimeMs: number
  readonly isFile: boolean
}

export function fileKeyOf(info: BigIntStats): FileKey {
  const id = `${info.dev}:${info.ino}`
  return {
    key: `${id}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`,
    id,
    size: Number(info.size),
    mtimeMs: Number(info.mtimeMs),
    isFile: info.isFile(),
  }
}

/**
 * Keys every file, at most `concurrency` at once, through `fs.stat`'s callbacks (a warm refresh of 3,000
 * files spent more on a promise per stat than on the stats themselves), or one after the other with
 * `statSync` (`'blocking'`: no thread-pool round trip, no callback). Never rejects: a file that cannot be
 * stat'ed (gone, EACCES on a directory above it) is undefined.
 */
export async function keyAll(
  files: readonly string[],
  concurrency: number | 'blocking',
): Promise<(FileKey | undefined)[]> {
  const keys = new Array<FileKey | undefined>(files.length)
  if (files.length === 0) return keys
  if (concurrency === 'blocking') {
    for (let at = 0; at < files.length; at++) {
      try {
        const info = statSync(files[at]!, { bigint: true, throwIfNoEntry: false })
        keys[at] = info === undefined ? undefined : fileKeyOf(info)
      } catch {
        // Not ours to read (EACCES), or a path that is no longer a path (ENOTDIR): undefined says so.
      }
    }
    return keys
  }
  return await new Promise((resolve) => {
    let next = 0
    let done = 0
    const start = (): void => {
      const at = next++
      statWithCallback(files[at]!, { bigint: true }, (error, info) => {
        keys[at] = error === null ? fileKeyOf(info) : undefined
        if (++done === files.length) resolve(keys)
        else if (next < files.length) start()
      })
    }
    for (let lane = 0; lane < Math.min(concurrency, files.length); lane++) start()
  })
}

/**
 * The key of a session of ours kept in segments: its first file's, with every later file's key in it, so a
 * change to any of them shows; its `id` is the whole key, so such a session is always read again whole
 * (reading its first file reads its segments: an append to the last segment is not an append to the first).
 */
export function sessionKeyOf(
  first: FileKey | undefined,
  segments: readonly (FileKey | undefined)[],
): FileKey | undefined {
  if (first === undefined || segments.length === 0) return first
  const key = [first.key, ...segments.map((segment) => segment?.key ?? 'gone')].join('|')
  return { ...first, key, id: key }
}
