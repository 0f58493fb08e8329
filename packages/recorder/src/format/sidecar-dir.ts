import fs from 'node:fs'
import { lstat, mkdir } from 'node:fs/promises'

/** The sidecar directory names sessions and holds their locks: only its owner may list it. */
export const SIDECAR_DIR_MODE = 0o700

function refuse(sidecarDir: string): Error {
  return Object.assign(
    new Error(
      `${sidecarDir} exists but is not a directory (a symlink or a file); nothing is written through it`,
    ),
    { code: 'ERR_SIDECAR_DIR' },
  )
}

/**
 * Makes the sidecar directory (`<dir>/.sessiontape`, mode 0700) if it is missing; the sessions directory
 * itself must exist. Something else at that name — a symlink above all, which would send locks and
 * sidecars elsewhere — is refused with code `ERR_SIDECAR_DIR`, never followed.
 */
export function ensureSidecarDirSync(sidecarDir: string): void {
  try {
    fs.mkdirSync(sidecarDir, { mode: SIDECAR_DIR_MODE })
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  if (!fs.lstatSync(sidecarDir).isDirectory()) throw refuse(sidecarDir)
}

/** {@link ensureSidecarDirSync}, asynchronously. */
export async function ensureSidecarDir(sidecarDir: string): Promise<void> {
  try {
    await mkdir(sidecarDir, { mode: SIDECAR_DIR_MODE })
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  if (!(await lstat(sidecarDir)).isDirectory()) throw refuse(sidecarDir)
}
