/**
 * "Nothing there": the path or one of its parents does not exist (ENOENT), or a parent is not a
 * directory (ENOTDIR). Everything else (EACCES, ELOOP, EIO…) is a real failure and is reported.
 */
export function isMissing(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const code = (err as { code?: unknown }).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
