import * as path from 'node:path'

/**
 * True when `candidate` is `base` itself or, with `deep`, lies under it on a path-separator
 * boundary: `/a/b` covers `/a/b/c` but never `/a/bc` (enhanced-resolve's purge gets this wrong).
 */
export function isSameOrUnder(candidate: string, base: string, deep: boolean): boolean {
  if (candidate === base) return true
  if (!deep) return false
  const prefix = base.endsWith(path.sep) ? base : base + path.sep
  return candidate.startsWith(prefix)
}

/** {@link isSameOrUnder} with `base` fixed, building the prefix once for a scan over many candidates. */
export function pathMatcher(base: string, deep: boolean): (candidate: string) => boolean {
  if (!deep) return (candidate) => candidate === base
  const prefix = base.endsWith(path.sep) ? base : base + path.sep
  return (candidate) => candidate === base || candidate.startsWith(prefix)
}

/**
 * The cache key for a path argument: the path exactly as spelled when absolute, else joined onto the
 * current directory *without* lexical normalisation. Collapsing `link/..` lexically would change what
 * the OS resolves (it follows `link` first), and a trailing `/` turns a file into ENOTDIR, so
 * different spellings stay different keys — harmless duplicates in a positive-only cache.
 */
export function toKey(p: string): string {
  if (path.isAbsolute(p)) return p
  const cwd = process.cwd()
  return cwd.endsWith(path.sep) ? cwd + p : cwd + path.sep + p
}

/**
 * The lexically normalised form, used only to *match* keys on invalidation, so that `invalidate('/a/b')`
 * also reaches an entry spelled `/a/./b/c`. Over-matching only drops more, which is always safe.
 */
export function normalizeForMatch(key: string): string {
  // Fast path for the common case (it runs on every stored miss): a POSIX absolute path without `//`,
  // `/.`, `/..` or a trailing `/` is already normal, and path.resolve costs more than the check.
  if (
    path.sep === '/' &&
    key.charCodeAt(0) === SLASH &&
    !key.includes('//') &&
    !key.includes('/.') &&
    (key.length === 1 || key.charCodeAt(key.length - 1) !== SLASH)
  )
    return key
  return path.resolve(key)
}

const SLASH = 0x2f
