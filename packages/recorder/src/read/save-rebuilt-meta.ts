import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { lstat, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { SessionMeta } from '../format/record-format.js'
import { fileOwnership } from '../format/file-ownership.js'
import { readMetaNoFollow } from '../format/meta-file.js'
import { syncDirectory } from '../util/sync-directory.js'
import { ensureSidecarDir } from '../format/sidecar-dir.js'

const META_MODE = 0o600
/** A sidecar is a few hundred bytes; a larger file at its name is not one of ours. */
const MAX_META_BYTES = 64 * 1024

/** Why a rebuilt sidecar was not saved, or undefined when it was. */
export type SaveOutcome = { readonly saved: true } | { readonly saved: false; readonly reason: string }

/**
 * Saves a rebuilt sidecar — only when it is safe: the transcript is ours (see file-ownership.ts), and the
 * sidecar's path is either free or holds a sidecar of ours for this session (recognised by its content,
 * read without following a symlink). Never through a symlink, never over another tool's file of the same
 * name. Atomic: a temporary file (O_EXCL | O_NOFOLLOW, mode 600) is written, fsynced and renamed over the
 * name; a rename replaces the directory entry, it never writes through a link planted there meanwhile.
 */
export async function saveRebuiltMeta(
  transcriptPath: string,
  metaPath: string,
  meta: SessionMeta,
): Promise<SaveOutcome> {
  const owner = await fileOwnership(transcriptPath)
  if (owner.verdict !== 'ours') return { saved: false, reason: `the transcript is not ours: ${owner.reason}` }
  let existing
  try {
    existing = await lstat(metaPath)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (existing !== undefined) {
    if (existing.isSymbolicLink()) return { saved: false, reason: 'a symlink is at the sidecar path' }
    if (!existing.isFile())
      return { saved: false, reason: 'something other than a file is at the sidecar path' }
    if (existing.size > MAX_META_BYTES)
      return { saved: false, reason: 'the file at the sidecar path is not ours' }
    const current = await readMetaNoFollow(metaPath, meta.sessionId)
    if (typeof current === 'string') {
      return { saved: false, reason: `the file at the sidecar path is not a sidecar of ours (${current})` }
    }
  }
  // The sidecar directory (`.sessiontape`, 0700) holds the temp file too: a shipper's glob never sees either.
  await ensureSidecarDir(path.dirname(metaPath))
  const tempPath = path.join(
    path.dirname(metaPath),
    `.${path.basename(metaPath)}.${randomBytes(6).toString('hex')}.tmp`,
  )
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW
  const handle = await open(tempPath, flags, META_MODE)
  let renamed = false
  try {
    await handle.writeFile(`${JSON.stringify(meta)}\n`)
    await handle.sync()
    await handle.close()
    await rename(tempPath, metaPath)
    renamed = true
    await syncDirectory(path.dirname(metaPath))
  } finally {
    if (!renamed) {
      await handle.close().catch(() => {
        // Already closed above: closing twice is harmless here.
      })
      await rm(tempPath, { force: true })
    }
  }
  return { saved: true }
}
