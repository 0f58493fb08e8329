import fs from 'node:fs'
import { createRequire } from 'node:module'

import type * as ProperLockfile from 'proper-lockfile'

import {
  lockHolderIsDead,
  markLockStale,
  removeLockOwner,
  removeLockOwnerSync,
  writeLockOwner,
  writeLockOwnerSync,
} from './lock-owner.js'

/**
 * The session's single-writer lock, taken with proper-lockfile (an atomic `mkdir` of `<file>.lock`, kept
 * fresh by an mtime heartbeat). The `mkdir` itself is done synchronously inside `createRecorder`, so the
 * moment it returns the recorder knows whether it owns the session — which the exit drain relies on: it may
 * write only when the lock is ours, and an asynchronous `mkdir` still in flight would leave that unknown.
 * Everything after (mtime probe, stale check, heartbeat) stays asynchronous.
 */

// proper-lockfile registers signal-exit handlers and graceful-fs patches `fs.close` when they are loaded,
// so it is loaded on first use only: importing this package must not touch the process. Loaded
// synchronously (the first mkdir is inside createRecorder). `require` exists only inside a bundle (esbuild
// rewrites `typeof require` and bundles the literal call as a lazily evaluated module); unbundled ESM has
// none and resolves from this file.
let lockfile: typeof ProperLockfile | undefined
function load(): typeof ProperLockfile {
  lockfile ??=
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- a literal require() is what bundlers follow
        (require('proper-lockfile') as typeof ProperLockfile)
      : (createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile)
  return lockfile
}

let syncMkdir = false
let lastSyncMkdir: { error: NodeJS.ErrnoException | null } | undefined

// One adapter for the whole process: proper-lockfile caches the file system's mtime precision on it.
const lockFs = {
  ...fs,
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    if (!syncMkdir) {
      fs.mkdir(path, callback)
      return
    }
    let error: NodeJS.ErrnoException | null = null
    try {
      fs.mkdirSync(path)
    } catch (caught) {
      error = caught as NodeJS.ErrnoException
    }
    lastSyncMkdir = { error }
    callback(error)
  },
}

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

export function lockPathOf(filePath: string): string {
  return `${filePath}.lock`
}

/** Starts taking the lock of `filePath` (which need not exist; its directory must). */
export function attemptLock(filePath: string, settings: LockSettings): LockAttempt {
  const { lock } = load()
  syncMkdir = settings.sync
  lastSyncMkdir = undefined
  const options: ProperLockfile.LockOptions = {
    realpath: false,
    stale: settings.staleMs,
    fs: lockFs,
    // proper-lockfile's default throws from inside a timer, which would crash the host process.
    onCompromised: settings.onCompromised,
  }
  let first: Promise<() => Promise<void>>
  try {
    first = lock(filePath, options)
  } finally {
    syncMkdir = false
  }
  const lockPath = lockPathOf(filePath)
  const outcome = lastSyncMkdir as { error: NodeJS.ErrnoException | null } | undefined
  // Written once only: rewriting it later, while the recorder already writes records, would open a window
  // in which a crash leaves it empty.
  const ownerOnRecord = outcome?.error === null && writeLockOwnerSync(lockPath)
  const acquired = first
    .catch(async (error: unknown) => {
      // Held by a process that provably died (SIGKILL, a crash): take it over now, not lockStaleMs later.
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await lockHolderIsDead(lockPath)))
        throw error
      await markLockStale(lockPath)
      return lock(filePath, options)
    })
    .then(async (release) => {
      if (!ownerOnRecord) await writeLockOwner(lockPath)
      return async () => {
        await removeLockOwner(lockPath)
        await release()
      }
    })
  return { acquired, syncMkdirError: outcome === undefined ? undefined : outcome.error }
}

/** Removes a lock directory we created but proper-lockfile has not registered yet (exit before its probe). */
export function removeLockDirSync(filePath: string): void {
  removeLockOwnerSync(lockPathOf(filePath))
  try {
    fs.rmdirSync(lockPathOf(filePath))
  } catch {
    // Already gone, or never ours: nothing to undo.
  }
}

/**
 * At exit, for a lock fully ours: proper-lockfile removes the lock directory itself, but not the owner file
 * written next to it, which would otherwise be left beside every transcript.
 */
export function removeOwnerAtExitSync(filePath: string): void {
  removeLockOwnerSync(lockPathOf(filePath))
}
