/**
 * Time source and timers, injectable so tests can control them (`createShutdown({ clock })`).
 * `now()` is a monotonic millisecond reading; only differences between readings are used.
 */
export interface Clock {
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The real clock: `performance.now()` and the global timers. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Arms a timer that never keeps the process alive (`unref()` when the handle supports it): every bound in
 * this package is a ceiling, and a process with nothing else left to do must still end at once.
 * Returns the function that disarms it.
 */
export function armTimer(clock: Clock, ms: number, callback: () => void): () => void {
  const handle = clock.setTimeout(callback, Math.max(0, ms))
  unref(handle)
  return () => clock.clearTimeout(handle)
}

function unref(handle: unknown): void {
  if (
    typeof handle === 'object' &&
    handle !== null &&
    'unref' in handle &&
    typeof handle.unref === 'function'
  ) {
    ;(handle as { unref(): unknown }).unref()
  }
}
