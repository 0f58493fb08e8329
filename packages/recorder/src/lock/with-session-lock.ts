import { attemptLock } from './session-lock.js'

/** Same lock as a live recorder takes (`<file>.lock`, proper-lockfile): repair never races a writer. */
const LOCK_STALE_MS = 10_000

/**
 * Takes the session's writer lock for the duration of `run`, with the recorder's own rules: a holder that
 * provably died on this host (its pid is gone) is taken over at once, a live one is left alone. Returns
 * undefined (without running) when a live process holds it.
 */
export async function withSessionLock<T>(
  filePath: string,
  run: () => Promise<T>,
): Promise<{ value: T } | undefined> {
  let compromised: Error | undefined
  let release: () => Promise<void>
  try {
    release = await attemptLock(filePath, {
      staleMs: LOCK_STALE_MS,
      sync: false,
      // The default throws from a timer; here a lost lock just fails the repair at the end.
      onCompromised: (error) => (compromised = error),
    }).acquired
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined
    throw error
  }
  try {
    const value = await run()
    if (compromised !== undefined) throw compromised
    return { value }
  } finally {
    await release().catch(() => {
      // Already released or compromised: nothing left to undo.
    })
  }
}
