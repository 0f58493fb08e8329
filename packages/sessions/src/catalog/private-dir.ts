/**
 * The catalog's cache directory is used only when no one but this user could have put anything in it: a
 * shard is a summary the catalog shows as the session's own (its project, its token counts), so a shard
 * another user wrote would be a forged figure, and a directory another user controls (a link to elsewhere)
 * would have the catalog write where it was sent. What is checked, with `lstat` (a link is never followed):
 *
 * - the cache directory and its `catalog-v3` are real directories (not links), owned by this user, that
 *   neither group nor others may write to; every level this creates is created `0700`, and one of the
 *   user's own that others may only read or enter (`0755`) is made private (`chmod 0700`) before use, so
 *   others cannot even list which sessions the shards name;
 * - every directory above them, as its real path, is owned by this user or by root, and writable by no one
 *   else unless sticky (`/tmp`): otherwise another user could move ours away and put theirs in its place
 *   between this check and a write (the rule OpenSSH's `StrictModes` applies to `~/.ssh`).
 *
 * Anything else: the catalog is not read nor written there, and works from the files alone, in memory
 * (slower, never wrong); the caller is told once why ({@link CacheDirError}). Where there are no user ids
 * (Windows), only the kinds are checked. Root can still do anything: this guards against other users.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs'
import path from 'node:path'

/** Why the cache directory is not used: `code` is stable, `dir` the directory refused. */
export class CacheDirError extends Error {
  override readonly name = 'CacheDirError'
  readonly code = 'ERR_CACHE_DIR_UNSAFE'
  readonly dir: string
  constructor(dir: string, reason: string, cause?: unknown) {
    super(
      `the cache directory ${dir} is not used: ${reason}; the catalog is kept in memory for this run (a directory of yours that only you may write to, such as mode 700, is used)`,
      cause === undefined ? undefined : { cause },
    )
    this.dir = dir
  }
}

/** The owner ids a private directory may have above ours: this user and root. */
function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

/** Why `info` is not a directory of this user's that only this user can write to, or undefined when it is. */
function notPrivate(info: Stats): string | undefined {
  if (info.isSymbolicLink()) return 'it is a symbolic link'
  if (!info.isDirectory()) return 'it is not a directory'
  const me = uid()
  if (me === undefined) return undefined
  if (info.uid !== me) return `it belongs to user id ${info.uid}, not to this user (${me})`
  if ((info.mode & 0o022) !== 0)
    return `group or others may write to it (mode ${(info.mode & 0o777).toString(8)})`
  return undefined
}

/** Takes group and others' read and search bits off a directory of ours that passed {@link notPrivate}. */
function makePrivate(dir: string, info: Stats): void {
  if (uid() !== undefined && (info.mode & 0o077) !== 0) chmodSync(dir, 0o700)
}

/** Why a directory above ours could let another user swap ours, or undefined when it cannot. */
function notSafeAbove(info: Stats): string | undefined {
  const me = uid()
  if (me === undefined) return undefined
  if (info.uid !== me && info.uid !== 0) return `it belongs to user id ${info.uid}`
  const sticky = (info.mode & 0o1000) !== 0
  if ((info.mode & 0o022) !== 0 && !sticky)
    return `group or others may write to it (mode ${(info.mode & 0o777).toString(8)})`
  return undefined
}

/**
 * `<cacheDir>/<subdir>`, created if missing, when it and `cacheDir` pass the checks above; else the
 * reason, as a {@link CacheDirError}. Synchronous: a handful of `lstat`s, once per call of the catalog.
 */
export function privateCatalogDir(cacheDir: string, subdir: string): string | CacheDirError {
  const dir = path.resolve(cacheDir)
  try {
    // Every level made here is 0700 (the umask can only take bits away); an existing one is checked below.
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const dirInfo = lstatSync(dir)
    const own = notPrivate(dirInfo)
    if (own !== undefined) return new CacheDirError(dir, own)
    makePrivate(dir, dirInfo)
    // The real path of what holds it (a link higher up is the user's own choice; its target is checked).
    let above = realpathSync(path.dirname(dir))
    for (;;) {
      const reason = notSafeAbove(lstatSync(above))
      if (reason !== undefined) return new CacheDirError(dir, `${above} is not safe above it: ${reason}`)
      const up = path.dirname(above)
      if (up === above) break
      above = up
    }
    const catalog = path.join(dir, subdir)
    try {
      mkdirSync(catalog, { mode: 0o700 })
    } catch (error) {
      // There already: checked below like a new one (a link or another user's directory is refused).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const catalogInfo = lstatSync(catalog)
    const inner = notPrivate(catalogInfo)
    if (inner !== undefined) return new CacheDirError(catalog, inner)
    makePrivate(catalog, catalogInfo)
    return catalog
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    return new CacheDirError(dir, `it cannot be made or checked (${code})`, error)
  }
}

/** Whether an open shard (its `fstat`) is a regular file this user wrote that no one else may write. */
export function isOwnFile(info: { isFile(): boolean; readonly uid: number; readonly mode: number }): boolean {
  if (!info.isFile()) return false
  const me = uid()
  return me === undefined || (info.uid === me && (info.mode & 0o022) === 0)
}
