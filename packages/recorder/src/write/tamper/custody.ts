import { constants } from 'node:fs'
import { hostname } from 'node:os'

import type { LockKeeper } from '../../lock/lock-keeper.js'
import { ownerPathOf } from '../../lock/lock-owner.js'
import { lockPathOf, madeLockDir } from '../../lock/session-lock.js'
import { errorCode } from '../../util/transient-errors.js'
import { bytesAt } from './file-scan.js'
import * as io from '../loop/io.js'

// The owner file is one short JSON object; more than this is not one of ours.
const OWNER_MAX_BYTES = 4096
const OWNER_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * Whether the transcript is still ours to write after the session lock was lost — decided here and nowhere
 * else. Two facts arrive in any order: the lock keeper says the lock was compromised (its directory removed,
 * its heartbeat overdue: a proper-lockfile timer), and a path check finds bytes in the file that are not
 * ours (someone else wrote). The rules:
 *
 * - a lock lost since the file was last found as we left it makes that check due before the next write
 *   ({@link mustCheck}); a check that finds the file untouched with the lock ours again clears it;
 * - someone else's bytes in the file are final ({@link someoneWrote} → true) when the lock was lost since
 *   that last clean check, or when the lock is not provably ours right now (the lock directory at its path
 *   is not the one we made, or its owner file names another process): another writer took the session and
 *   wrote, and writing on would fork the chain. Only with the lock provably ours all along is it someone
 *   bypassing the lock (`echo >> file`), reported and written after.
 *
 * So whichever comes first — the other writer's bytes or the news of the lost lock — the recorder stops
 * for good instead of writing after them.
 */
export class Custody {
  readonly #lock: LockKeeper
  readonly #filePath: string
  // The lock was compromised after the file was last found exactly as our writes left it.
  #lostSinceCheck = false

  constructor(lock: LockKeeper, filePath: string) {
    this.#lock = lock
    this.#filePath = filePath
  }

  /** The lock keeper reports a compromise. */
  lockLost(): void {
    this.#lostSinceCheck = true
  }

  /** The file must be checked before the next write: the lock was lost since it was last found untouched. */
  get mustCheck(): boolean {
    return this.#lostSinceCheck
  }

  /** A check found the file exactly as our writes left it. */
  checkedClean(): void {
    // With the lock ours again, nothing happened while it was lost; while it is still lost, nothing is known.
    if (this.#lock.isOurs()) this.#lostSinceCheck = false
  }

  /** A check found bytes in the file that are not ours. True: the session is someone else's now (final). */
  *someoneWrote(): io.Io<boolean> {
    if (!this.#lock.enabled) return false
    if (this.#lostSinceCheck || !this.#lock.isOurs()) return true
    return !(yield* this.#provablyOurs())
  }

  /** The directory at the lock path is the one we made, and its owner file (if any) names this process. */
  *#provablyOurs(): io.Io<boolean> {
    const made = madeLockDir(this.#filePath)
    if (made === undefined) return false
    const lockPath = lockPathOf(this.#filePath)
    try {
      const found = yield* io.lstat(lockPath)
      if (found.dev !== made.dev || found.ino !== made.ino) return false
    } catch {
      // No lock directory at all: it was removed, and anyone may have taken and released it since.
      return false
    }
    let fd: number
    try {
      fd = yield* io.open(ownerPathOf(lockPath), OWNER_READ_FLAGS, 0)
    } catch (error) {
      // No owner file (it could not be written when the lock was made): the directory's identity decides.
      return errorCode(error) === 'ENOENT'
    }
    let text = ''
    try {
      text = (yield* bytesAt(fd, 0, OWNER_MAX_BYTES)).toString('utf8')
    } catch {
      // Unreadable: not provably ours (below).
    }
    try {
      yield* io.close(fd)
    } catch {
      // Read-only descriptor: nothing was written through it, nothing to lose.
    }
    try {
      const owner = JSON.parse(text) as { pid?: unknown; hostname?: unknown }
      return owner.pid === process.pid && owner.hostname === hostname()
    } catch {
      return false
    }
  }
}
