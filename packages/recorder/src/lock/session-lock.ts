import fs from 'node:fs'

import type * as ProperLockfile from 'proper-lockfile'

import { dropKeptIntent, lockFs, lockPathOf, makeLockDirSync, premade } from './lock-dir.js'
import { loadLockfile, loadedLockfile } from './lockfile-module.js'
import {
  lockHolderIsDead,
  markLockStale,
  removeLockOwner,
  removeLockOwnerSync,
  removeDeadIntents,
} from './lock-owner.js'

export {
  forgetLockDir,
  lockPathOf,
  lockRefreshedAt,
  madeLockDir,
  refreshLockSync,
  type LockDirIdentity,
} from './lock-dir.js'

/**
 * The session's single-writer lock, taken with proper-lockfile (an atomic `mkdir` of the lock directory
 * `<dir>/.sessiontape/<name>.lock` — out of reach of a shipper's `*` glob — kept
 * fresh by an mtime heartbeat). The `mkdir` itself is done synchronously inside `createRecorder`, so the
 * moment it returns the recorder knows whether it owns the session — which the exit drain relies on: it may
 * write only when the lock is ours, and an asynchronous `mkdir` still in flight would leave that unknown.
 * Everything after (mtime probe, stale check, heartbeat) stays asynchronous. What this process knows of
 * the directories it made lives in lock-dir.ts; proper-lockfile is loaded on first use (lockfile-module.ts).
 */

export interface LockAttempt {
  /** Resolves to the release function once the lock is fully taken; rejects (`code: 'ELOCKED'`) if held. */
  readonly acquired: Promise<() => Promise<void>>
  /**
   * Outcome of the `mkdir` done synchronously during the call: `null` = we created the lock directory;
   * an error (`EEXIST`: someone holds it, pending the stale check); `undefined` = not attempted synchronously.
   */
  readonly syncMkdirError: NodeJS.ErrnoException | null | undefined
}

export interface LockSettings {
  readonly staleMs: number
  readonly onCompromised: (error: Error) => void
  /** Do the lock directory's `mkdir` synchronously, inside this call. */
  readonly sync: boolean
}

/** Starts taking the lock of `filePath` (which need not exist; its directory must). */
export function attemptLock(filePath: string, settings: LockSettings): LockAttempt {
  const lockPath = lockPathOf(filePath)
  let syncMkdirError: NodeJS.ErrnoException | null | undefined
  if (settings.sync) {
    syncMkdirError = makeLockDirSync(lockPath)
    if (syncMkdirError === null) premade.add(lockPath)
  }
  const options: ProperLockfile.LockOptions = {
    realpath: false,
    lockfilePath: lockPathOf(filePath),
    stale: settings.staleMs,
    fs: lockFs,
    // proper-lockfile's default throws from inside a timer, which would crash the host process.
    onCompromised: settings.onCompromised,
  }
  const acquired = loadLockfile()
    .then(({ lock }) => lock(filePath, options))
    .catch(async (error: unknown) => {
      // Held by a process that provably died (SIGKILL, a crash): take it over now, not lockStaleMs later.
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await lockHolderIsDead(lockPath)))
        throw error
      await markLockStale(lockPath)
      return (await loadLockfile()).lock(filePath, options)
    })
    .then(async (release) => {
      // Intents of contenders that died are no longer evidence of anything: the lock is ours now.
      await removeDeadIntents(lockPath)
      return release
    })
    .then((release) => async () => {
      // The directory first, then the owner: a crash in between leaves an owner file that vouches for no
      // directory (harmless), never a directory without its owner (which would wait lockStaleMs).
      await release()
      await removeLockOwner(lockPath)
      dropKeptIntent(lockPath)
    })
  return { acquired, syncMkdirError }
}

/**
 * At exit (no later tick runs): releases the lock ourselves instead of relying on proper-lockfile's own exit
 * hook, which lives in signal-exit's process-wide state — and two copies of signal-exit in one process (3 from
 * proper-lockfile, 4 from another library of the host) can disable each other's hooks. `registered`: proper-lockfile
 * has finished taking it (else only our mkdir happened, and the directory is removed directly).
 */
export function releaseLockAtExitSync(filePath: string, registered: boolean): void {
  const lockPath = lockPathOf(filePath)
  premade.delete(lockPath)
  let released = false
  // Registered implies loaded (proper-lockfile took it); checked all the same, this path must not throw.
  const loaded = loadedLockfile()
  if (registered && loaded !== undefined) {
    try {
      loaded.unlockSync(filePath, { realpath: false, lockfilePath: lockPath, fs: lockFs })
      released = true
    } catch {
      // Not (or no longer) in proper-lockfile's registry: removed directly below.
    }
  }
  if (!released) {
    try {
      fs.rmdirSync(lockPath)
    } catch {
      // Already gone, or never ours: nothing to undo.
    }
  }
  removeLockOwnerSync(lockPath)
  dropKeptIntent(lockPath)
}
