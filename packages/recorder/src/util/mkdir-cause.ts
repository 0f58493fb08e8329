import fs from 'node:fs'
import path from 'node:path'

/**
 * Node's recursive `mkdir` (what `mkdir -p` wrappers call) reports ENOENT when the real cause is another one
 * — on a read-only file system, `mkdir -p /ro/a/b` says ENOENT, not EROFS — because it retries the parent
 * and reports that first error. When it says ENOENT, the directory below the deepest one that exists is made
 * once without `recursive`, and that error (EROFS, EACCES, ENOSPC…) is the one reported: a user told ENOENT
 * looks for a missing path, not a read-only mount. Only on this failure path: a success costs nothing.
 */
export async function mkdirFailure(dir: string, error: unknown, mode: number): Promise<unknown> {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return error
  const next = await firstMissing(path.resolve(dir))
  if (next === undefined) return error
  try {
    await fs.promises.mkdir(next, { mode })
  } catch (real) {
    return real
  }
  // Made it after all (a race, or the first error passed): the caller's retry goes on from there.
  return error
}

/** {@link mkdirFailure}, synchronously (createRecorder's setup and the exit drain). */
export function mkdirFailureSync(dir: string, error: unknown, mode: number): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return error
  let next: string | undefined
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const parent = path.dirname(at)
    if (parent === at) return error
    if (fs.existsSync(parent)) {
      next = at
      break
    }
  }
  try {
    fs.mkdirSync(next, { mode })
  } catch (real) {
    return real
  }
  return error
}

/** The path just below the deepest existing ancestor of `dir` (undefined if even the root is missing). */
async function firstMissing(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    const parent = path.dirname(at)
    if (parent === at) return undefined
    const exists = await fs.promises.lstat(parent).then(
      () => true,
      () => false,
    )
    if (exists) return at
  }
}
