import { lstat, readdir, rm, rmdir } from 'node:fs/promises'
import path from 'node:path'

/** Caches of older formats, removed when a shard of this one is first saved. */
export const OLD_SUBDIRS = ['catalog-v1', 'catalog-v2']

/** A file an older catalog wrote: a shard (`07.bin`) or a temp file of one left by a crash. */
const OLD_SHARD_NAME = /^\d{2}\.bin(?:\.\d+\.[0-9a-f]{8}\.tmp)?$/

/**
 * Removes an older format's cache: only the files it wrote, then the directory if that emptied it. The cache
 * directory may be one a user named (`cacheDir`): a `catalog-v1` there that is a link, or holds anything
 * else, is not ours to delete.
 */
export async function removeOldCache(dir: string): Promise<void> {
  let names: string[]
  try {
    if (!(await lstat(dir)).isDirectory()) return
    names = await readdir(dir)
  } catch {
    return
  }
  for (const name of names) {
    if (!OLD_SHARD_NAME.test(name)) continue
    const file = path.join(dir, name)
    // A directory or link of that name was not written by us either.
    if ((await lstat(file).catch(() => undefined))?.isFile() === true) await rm(file, { force: true })
  }
  // Not empty (something else lives there): left as it is.
  await rmdir(dir).catch(() => undefined)
}
