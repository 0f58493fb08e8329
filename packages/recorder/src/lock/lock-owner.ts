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
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises'
import { hostname } from 'node:os'
import path from 'node:path'

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
 * directory was made (see session-lock.ts). Returns false if it could not: the caller then keeps its intent
 * in place of the owner file until it releases the lock, so the lock stays provably abandoned after a crash.
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
    // The caller keeps its intent as the record of who holds the lock.
    return false
  }
}

/**
 * An intent names a process about to make the lock directory. It is created (a name, no content: one call)
 * before the `mkdir` and removed once the owner file is written or the `mkdir` failed. So a lock directory
 * whose owner file is missing, empty or names an older directory — its maker was killed between `mkdir` and
 * the owner write, both blocking calls that a loaded disk can stretch to milliseconds — can still be proven
 * abandoned: every process that could have made it left an intent, and all of them are dead.
 */
const INTENT_MARK = '.intent.'

function intentPrefix(lockPath: string): string {
  return `${path.basename(ownerPathOf(lockPath))}${INTENT_MARK}`
}

/** Creates this process's intent for `lockPath`; returns its path, or null if it could not be created. */
export function writeIntentSync(lockPath: string): string | null {
  const host = Buffer.from(hostname()).toString('hex')
  const name = `${intentPrefix(lockPath)}${process.pid}.${host}.${Math.random().toString(36).slice(2, 10)}`
  const intentPath = path.join(path.dirname(ownerPathOf(lockPath)), name)
  try {
    closeSync(
      openSync(
        intentPath,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      ),
    )
    return intentPath
  } catch {
    // Without an intent, a maker killed before its owner write can only be waited out (staleness).
    return null
  }
}

export function removeIntentSync(intentPath: string | null): void {
  if (intentPath === null) return
  try {
    rmSync(intentPath, { force: true })
  } catch {
    // A leftover intent names this pid: once the process is gone it proves nothing but "dead".
  }
}

/** True when there is at least one intent for `lockPath` and every one names a dead process of this host. */
async function intentsAllDead(lockPath: string): Promise<boolean> {
  const prefix = intentPrefix(lockPath)
  let names: string[]
  try {
    names = (await readdir(path.dirname(ownerPathOf(lockPath)))).filter((name) => name.startsWith(prefix))
  } catch {
    return false
  }
  if (names.length === 0) return false
  const host = Buffer.from(hostname()).toString('hex')
  for (const name of names) {
    const [pidText, hostHex] = name.slice(prefix.length).split('.')
    const pid = Number(pidText)
    if (!Number.isSafeInteger(pid) || pid <= 0 || hostHex !== host) return false
    if (pid === process.pid || processExists(pid)) return false
  }
  return true
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
 * True only when the lock at `lockPath` was taken by a process on this host that no longer exists: its owner
 * file names this lock directory and a dead pid, or — no valid owner file — every intent left for it names a
 * dead pid of this host. Anything uncertain (another host, a live or reused pid, no owner and no intent) is
 * false, and the lock is left to go stale on its own.
 */
export async function lockHolderIsDead(lockPath: string): Promise<boolean> {
  let owner: Partial<LockOwner> | undefined
  try {
    owner = JSON.parse(await readFile(ownerPathOf(lockPath), 'utf8')) as Partial<LockOwner>
  } catch {
    owner = undefined
  }
  const current = owner?.lockId !== undefined && owner.lockId === (await lockIdOf(lockPath))
  if (owner === undefined || !current) return intentsAllDead(lockPath)
  if (typeof owner.pid !== 'number' || owner.pid === process.pid || owner.hostname !== hostname())
    return false
  return !processExists(owner.pid)
}

/** After taking a lock: intents left by contenders that died are evidence nobody needs any more. */
export async function removeDeadIntents(lockPath: string): Promise<void> {
  const prefix = intentPrefix(lockPath)
  const dir = path.dirname(ownerPathOf(lockPath))
  const host = Buffer.from(hostname()).toString('hex')
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const [pidText, hostHex] = name.slice(prefix.length).split('.')
    const pid = Number(pidText)
    if (
      hostHex === host &&
      Number.isSafeInteger(pid) &&
      pid > 0 &&
      pid !== process.pid &&
      !processExists(pid)
    )
      await rm(path.join(dir, name), { force: true }).catch(() => {})
  }
}

/** Makes a dead holder's lock look stale to proper-lockfile, whose own takeover then removes and retakes it. */
export async function markLockStale(lockPath: string): Promise<void> {
  const longAgo = new Date(0)
  await utimes(lockPath, longAgo, longAgo)
}
