import {
  closeSync,
  constants,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs'
import { readFile, rm, stat, utimes } from 'node:fs/promises'
import { hostname } from 'node:os'

/**
 * Who holds a session lock, written next to the lock directory once the lock is taken. proper-lockfile
 * alone can only tell that a holder died by the lock going stale (`lockStaleMs`, 10 s by default), so a
 * user who resumes right after a crash would be told the session is busy. With the owner on record, a
 * holder that is provably dead — same host, its pid gone — is taken over at once.
 */
interface LockOwner {
  readonly pid: number
  readonly hostname: string
  /** Identity of the lock directory the owner created, so an owner file can never vouch for a newer lock. */
  readonly lockId: string
}

// O_NOFOLLOW: a symlink planted at the owner path is refused (ELOOP), never written through.
const OWNER_WRITE = {
  mode: 0o600,
  flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
}

export function ownerPathOf(lockPath: string): string {
  return `${lockPath}.owner`
}

/** Inode plus birth time: a lock directory removed and made again gets a new id even if the inode is reused. */
function lockIdFrom(stats: Stats | undefined): string | undefined {
  if (stats === undefined || !(stats.birthtimeMs > 0)) return undefined
  return `${stats.ino}:${stats.birthtimeMs}`
}

async function lockIdOf(lockPath: string): Promise<string | undefined> {
  return lockIdFrom(await stat(lockPath).catch(() => undefined))
}

function ownerText(lockId: string): string {
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), lockId }
  return JSON.stringify(owner)
}

/**
 * Records this process as the holder of the lock at `lockPath`, synchronously, right after the lock
 * directory was made (see session-lock.ts): a crash finds almost no moment in which the lock has no owner
 * on record. Best effort: without it, staleness still works.
 */
export function writeLockOwnerSync(lockPath: string): boolean {
  try {
    const lockId = lockIdFrom(statSync(lockPath))
    if (lockId === undefined) return false
    const fd = openSync(ownerPathOf(lockPath), OWNER_WRITE.flag, OWNER_WRITE.mode)
    try {
      writeFileSync(fd, ownerText(lockId))
    } finally {
      closeSync(fd)
    }
    return true
  } catch {
    // Best effort: a holder with no owner file is only ever taken over once its lock goes stale.
    return false
  }
}

export async function removeLockOwner(lockPath: string): Promise<void> {
  await rm(ownerPathOf(lockPath), { force: true }).catch(() => {
    // A leftover owner file names a dead pid and a lock directory that no longer exists: it vouches for nothing.
  })
}

/**
 * The same, synchronously, for the exit drain (no later tick runs there). Only an owner file naming this
 * process is removed: a lock taken over by another process without our heartbeat noticing yet is theirs.
 */
export function removeLockOwnerSync(lockPath: string): void {
  try {
    const owner = JSON.parse(readFileSync(ownerPathOf(lockPath), 'utf8')) as Partial<LockOwner>
    if (owner.pid === process.pid && owner.hostname === hostname())
      rmSync(ownerPathOf(lockPath), { force: true })
  } catch {
    // As above: a leftover owner file vouches for nothing.
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * True only when the lock at `lockPath` was taken by a process on this host that no longer exists. Anything
 * uncertain (no owner file, another host, a lock directory the owner did not create, a live or reused pid)
 * is false, and the lock is left to go stale on its own.
 */
export async function lockHolderIsDead(lockPath: string): Promise<boolean> {
  let owner: Partial<LockOwner>
  try {
    owner = JSON.parse(await readFile(ownerPathOf(lockPath), 'utf8')) as Partial<LockOwner>
  } catch {
    return false
  }
  if (typeof owner.pid !== 'number' || owner.pid === process.pid || owner.hostname !== hostname())
    return false
  if (owner.lockId === undefined || owner.lockId !== (await lockIdOf(lockPath))) return false
  return !processExists(owner.pid)
}

/** Makes a dead holder's lock look stale to proper-lockfile, whose own takeover then removes and retakes it. */
export async function markLockStale(lockPath: string): Promise<void> {
  const longAgo = new Date(0)
  await utimes(lockPath, longAgo, longAgo)
}
