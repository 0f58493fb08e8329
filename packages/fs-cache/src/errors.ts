/**
 * Thrown at the call for a bad argument (misuse, not I/O). It is a `TypeError`, so existing
 * `instanceof TypeError` checks keep working, and it carries a stable `code` to branch on.
 * File-system failures are never wrapped: they reach the caller unchanged (same `code`, same `path`).
 */
export class FsCacheArgumentError extends TypeError {
  readonly code = 'ERR_FS_CACHE_INVALID_ARGUMENT'
  override readonly name = 'FsCacheArgumentError'
}
