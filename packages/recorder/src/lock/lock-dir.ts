import fs from 'node:fs'
import path from 'node:path'

import { removeIntentSync, writeIntentSync, writeLockOwnerSync } from './lock-owner.js'
import { sidecarDirOfFile } from '../format/record-format.js'
import { ensureSidecarDirSync } from '../format/sidecar-dir.js'

/**
 * The lock directories this process made and holds: how each is made (synchronously, with its owner on
 * record), what identity and mtime it had when we last touched it, and the file-system adapter through
 * which proper-lockfile reaches them — so that a directory someone else made again at the same path is
 * never refreshed, removed or taken for ours. The one owner of that knowledge; session-lock.ts asks it.
 */

/** The lock directory of the transcript `filePath`: `<dir>/.sessiontape/<name>.lock`. */
export function lockPathOf(filePath: string): string {
  return path.join(sidecarDirOfFile(filePath), `${path.basename(filePath)}.lock`)
}

/**
 * Lock directories made synchronously by {@link attemptLock} before proper-lockfile was asked: its first
 * mkdir of one of them reports success (the directory is ours, made a moment ago) instead of EEXIST.
 */
export const premade = new Set<string>()

// The lock directory holds nothing, but its name says a session is being written: only its owner may see it.
const LOCK_DIR_MODE = 0o700

// Intents kept by a holder whose owner file could not be written (a symlink planted at its path, say): the
// intent then stands in for the owner file until the lock is released (see lock-owner.ts).
const keptIntents = new Map<string, string>()

/** A lock directory's identity: a directory at the lock path with another identity is not the one we made. */
export interface LockDirIdentity {
  readonly dev: number
  readonly ino: number
}

// The lock directories this process made and has not released, by lock path: what a holder compares the
// directory at the lock path with to tell whether its lock was taken over (see write/custody.ts).
const madeDirs = new Map<string, LockDirIdentity>()

/** What this process last made the lock directory's mtime, while it held it. */
interface Refresh {
  // The directory's birth time: with dev and ino, it tells our directory from one made again in its place
  // (ext4 hands a removed directory's inode to the next one made).
  readonly birthtimeMs: number
  // The mtime contenders read: they take the lock over once it is `lockStaleMs` older than their clock.
  readonly mtimeMs: number
}

// By lock path, for the locks this process holds: when each was last made fresh (see lockRefreshedAt).
const refreshes = new Map<string, Refresh>()

/**
 * What of `fs` proper-lockfile is handed: everything, with mkdir, rmdir and utimes our own (below). Typed
 * as its own interface so that the declaration file does not have to name every type `fs` carries.
 */
export interface LockFs {
  readonly mkdir: (lockPath: string, callback: (error: NodeJS.ErrnoException | null) => void) => void
  readonly rmdir: (target: string, callback: (error: NodeJS.ErrnoException | null) => void) => void
  readonly utimes: (
    target: string,
    atime: Date | number,
    mtime: Date | number,
    callback: (error: NodeJS.ErrnoException | null) => void,
  ) => void
}

// One adapter for the whole process: proper-lockfile caches the file system's mtime precision on it. Its
// mkdir is synchronous and puts the owner on record in the same breath, every time a lock directory is made
// (at create, when a dead holder's lock is taken over, when a lost lock is taken again), between an intent
// made before it and removed after the owner file is written (see lock-owner.ts): wherever a kill lands,
// the lock it leaves can be proven abandoned. Only `createRecorder` and those rare retakes pay these
// synchronous calls; recording, flushing and closing never do.
export const lockFs: LockFs = {
  ...fs,
  mkdir(lockPath: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    if (premade.delete(lockPath)) {
      process.nextTick(callback, null)
      return
    }
    process.nextTick(callback, makeLockDirSync(lockPath))
  },
  // proper-lockfile removes the lock directory by path: to release it, to take a stale one over, and when
  // its mtime probe fails right after it was made. A directory this process made and holds, found replaced
  // at the path, is someone else's lock now (they took ours over): it is left alone, never removed.
  rmdir(target: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    const known = refreshes.get(target)
    if (known === undefined) {
      fs.rmdir(target, callback)
      return
    }
    fs.lstat(target, (lstatError, found) => {
      if (lstatError === null && !isOurDir(target, found, known)) {
        process.nextTick(callback, null)
        return
      }
      fs.rmdir(target, callback)
    })
  },
  // proper-lockfile's heartbeat (and its mtime probe) refresh the lock through this. It refreshes by path,
  // after a stat that compared only the mtime: a lock taken over between that stat and this call would have
  // *their* directory refreshed (and them judged compromised by their own heartbeat) while we go on. So the
  // directory at the path must be ours before (else proper-lockfile is told it is gone: its ENOENT ends the
  // lock as compromised) and after the call; each refresh of ours is noted, so a writer can tell whether its
  // lock is provably fresh before it writes (see lockRefreshedAt).
  utimes(
    target: string,
    atime: Date | number,
    mtime: Date | number,
    callback: (error: NodeJS.ErrnoException | null) => void,
  ): void {
    const known = refreshes.get(target)
    if (known === undefined) {
      fs.utimes(target, atime, mtime, callback)
      return
    }
    fs.lstat(target, (beforeError, before) => {
      if (beforeError === null && !isOurDir(target, before, known)) {
        callback(
          Object.assign(new Error(`the lock directory ${target} was made again by someone else`), {
            code: 'ENOENT',
          }),
        )
        return
      }
      fs.utimes(target, atime, mtime, (error) => {
        if (error !== null) {
          callback(error)
          return
        }
        fs.lstat(target, (afterError, after) => {
          if (afterError === null && isOurDir(target, after, known))
            refreshes.set(target, { birthtimeMs: known.birthtimeMs, mtimeMs: timeMs(mtime) })
          callback(null)
        })
      })
    })
  },
}

/** The directory found at `lockPath` is the one this process made there (dev, inode and birth time). */
function isOurDir(lockPath: string, found: fs.Stats, known: Refresh): boolean {
  const made = madeDirs.get(lockPath)
  return (
    made !== undefined &&
    found.dev === made.dev &&
    found.ino === made.ino &&
    found.birthtimeMs === known.birthtimeMs
  )
}

/** A time as `fs.utimes` takes it (a Date, or seconds) in milliseconds. */
function timeMs(time: Date | number): number {
  return time instanceof Date ? time.getTime() : time * 1000
}

/**
 * Makes the lock directory, with the owner on record (see lockFs); `null` = made by us, else why not
 * (`EEXIST`: someone holds it). It is made in the sidecar directory; that one is made (0700) when it is
 * missing — the first lock in a sessions directory, or after someone removed it — and refused
 * (ERR_SIDECAR_DIR), never followed, when it is a symlink: the owner file written in it must not land in
 * someone else's directory. Two synchronous calls more, only where a lock directory is made
 * (createRecorder and rare retakes).
 */
export function makeLockDirSync(lockPath: string): NodeJS.ErrnoException | null {
  let intent: string | null = null
  try {
    ensureSidecarDirSync(path.dirname(lockPath))
    intent = writeIntentSync(lockPath)
    fs.mkdirSync(lockPath, { mode: LOCK_DIR_MODE })
    const made = fs.lstatSync(lockPath)
    madeDirs.set(lockPath, { dev: made.dev, ino: made.ino })
    refreshes.set(lockPath, { birthtimeMs: made.birthtimeMs, mtimeMs: made.mtimeMs })
    if (writeLockOwnerSync(lockPath)) removeIntentSync(intent)
    else if (intent !== null) keptIntents.set(lockPath, intent)
    return null
  } catch (caught) {
    // Not the maker of this lock (it exists, or the mkdir failed): the intent is withdrawn.
    removeIntentSync(intent)
    return caught as NodeJS.ErrnoException
  }
}

/** The identity of the lock directory of `filePath` as this process made it, if it holds that lock. */
export function madeLockDir(filePath: string): LockDirIdentity | undefined {
  return madeDirs.get(lockPathOf(filePath))
}

/**
 * The mtime (ms since the epoch) this process last gave the lock directory `lockPath` (see
 * {@link lockPathOf}), while holding it (when it made the directory, then at each heartbeat that found it
 * still ours); undefined if it holds no such lock. A contender takes the lock over only once this is
 * `lockStaleMs` older than its clock. By lock path, not transcript path: it is asked before every write.
 */
export function lockRefreshedAt(lockPath: string): number | undefined {
  return refreshes.get(lockPath)?.mtimeMs
}

/**
 * At exit, when the heartbeat is overdue (no later tick will run it): makes the lock fresh synchronously if
 * it is provably still ours and not yet stale — our directory at the path (dev, inode and birth time) with
 * the mtime we last gave it (a contender's takeover makes a new directory: another birth time, another
 * mtime), younger than `staleMs` (no contender can have judged it stale yet). True when it did.
 */
export function refreshLockSync(filePath: string, staleMs: number): boolean {
  const lockPath = lockPathOf(filePath)
  const known = refreshes.get(lockPath)
  if (known === undefined) return false
  try {
    const found = fs.lstatSync(lockPath)
    const ours =
      isOurDir(lockPath, found, known) &&
      // mtimeMs may carry a fraction the Date we set did not: the same millisecond is the same mtime.
      Math.abs(found.mtimeMs - known.mtimeMs) < 1
    const now = Date.now()
    if (!ours || now - known.mtimeMs >= staleMs) return false
    const mtime = new Date(now)
    fs.utimesSync(lockPath, mtime, mtime)
    refreshes.set(lockPath, { birthtimeMs: known.birthtimeMs, mtimeMs: now })
    return true
  } catch {
    // Gone, or not refreshable: not provably ours.
    return false
  }
}

/**
 * The lock of `filePath` was lost (taken over, removed): what this process knew of the directory it had made
 * there is forgotten, so the directory now at the path — someone else's — is never taken for ours, and one
 * that goes stale can be taken over like anyone's.
 */
export function forgetLockDir(filePath: string): void {
  const lockPath = lockPathOf(filePath)
  madeDirs.delete(lockPath)
  refreshes.delete(lockPath)
}

/** The lock is released: an intent kept in place of its owner file goes with it. */
export function dropKeptIntent(lockPath: string): void {
  madeDirs.delete(lockPath)
  refreshes.delete(lockPath)
  const intent = keptIntents.get(lockPath)
  if (intent === undefined) return
  keptIntents.delete(lockPath)
  removeIntentSync(intent)
}
