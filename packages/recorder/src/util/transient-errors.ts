/**
 * Errors that mean "try the same call again in a moment" rather than "something is wrong": a non-blocking
 * descriptor that is not ready, a busy resource, an interrupted call.
 */
const TRANSIENT_CODES = new Set(['EAGAIN', 'EWOULDBLOCK', 'EBUSY', 'EINTR'])

export function isTransient(error: unknown): boolean {
  return TRANSIENT_CODES.has(errorCode(error) ?? '')
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

/** Immediate retries of a transient error before it counts as a failure, with delays 1, 2, 4 … 64 ms. */
export const TRANSIENT_RETRIES = 7
export const TRANSIENT_FIRST_DELAY_MS = 1
