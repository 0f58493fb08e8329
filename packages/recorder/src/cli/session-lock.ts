import { createRequire } from 'node:module'
import type * as ProperLockfile from 'proper-lockfile'

/** Same lock as a live recorder takes (`<file>.lock`, proper-lockfile): repair never races a writer. */
const LOCK_STALE_MS = 10_000

/**
 * Takes the session's writer lock for the duration of `run`. Returns undefined (without running) when a
 * live process holds it. proper-lockfile is loaded here, on first use, because loading it installs exit
 * handlers.
 */
export async function withSessionLock<T>(
  filePath: string,
  run: () => Promise<T>,
): Promise<{ value: T } | undefined> {
  // In a bundle, `require` is the bundler's and the literal call is bundled (see ../session-lock.ts).
  const lockfile =
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- a literal require() is what bundlers follow
        (require('proper-lockfile') as typeof ProperLockfile)
      : (createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile)
  let compromised: Error | undefined
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(filePath, {
      realpath: false,
      stale: LOCK_STALE_MS,
      // The default throws from a timer; here a lost lock just fails the repair at the end.
      onCompromised: (error) => (compromised = error),
    })
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
