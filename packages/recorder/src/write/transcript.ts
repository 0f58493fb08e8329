import { constants } from 'node:fs'

import { RecorderError, RecorderErrorCode } from '../errors.js'
import type { InFlight } from './in-flight-write.js'
import {
  errorCode,
  isTransient,
  TRANSIENT_FIRST_DELAY_MS,
  TRANSIENT_RETRIES,
} from '../util/transient-errors.js'
import { OWNERSHIP_PREFIX_BYTES, ownershipOfPrefix } from '../format/file-ownership.js'
import { type Carry, copyCarry, planCarry } from './carry.js'
import { ExpectedContent } from './expected-content.js'
import { bytesAt, lastUuidOf, sessionOfPrefix } from './file-scan.js'
import * as io from './io.js'
import type { FileIdentity } from '../util/recorder-fs.js'

// O_RDWR (not O_WRONLY) so the file can be read back (its first and last bytes at open, a carry after a
// replacement); O_APPEND so every write lands at the end whoever else grew the file; O_NOFOLLOW refuses
// a planted symlink; O_NONBLOCK so opening a FIFO planted at the path cannot block (it is then refused:
// only a regular file is a transcript).
const OPEN_FLAGS =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK
const FILE_MODE = 0o600
const DIR_MODE = 0o700
const NEWLINE = 0x0a

export type ErrorFactory = (code: RecorderErrorCode, what: string, cause: unknown) => RecorderError

/** What the path check found. */
export type PathCheck =
  | { readonly kind: 'same' }
  /** Deleted, renamed away, or replaced by another file (a copy, an editor's save): the descriptor was let go. */
  | { readonly kind: 'replaced'; readonly missing: boolean; readonly carried: number }
  /** Same file, shorter than our writes left it: someone truncated it. */
  | { readonly kind: 'truncated'; readonly from: number; readonly to: number }
  /**
   * Same file, longer than our writes left it, our bytes in place: someone else appended (the lock was
   * bypassed, or lost). `interleaved`: their bytes came before our last write, not after it.
   */
  | { readonly kind: 'grown'; readonly from: number; readonly to: number; readonly interleaved: boolean }
  /**
   * Same file, rewritten in place with this session's records (an older copy put back with `cat`): writing
   * goes on at its end; what we wrote after its last record (`lastUuid`) went with the old bytes.
   */
  | {
      readonly kind: 'rewritten'
      readonly from: number
      readonly to: number
      readonly lastUuid: string | null
    }
  /**
   * Same file, overwritten in place with bytes that are not this session's: it is never written again (the
   * descriptor was let go); every record we wrote into it went with the old bytes.
   */
  | { readonly kind: 'overwritten'; readonly reason: string }

/**
 * The one owner of the transcript's path and descriptors. Every open, check, write, sync and close of the
 * transcript goes through it, as an {@link io.Io} procedure; nothing else ever holds the descriptor. States:
 *
 *   closed ──open()──▶ open ──check(): replaced──▶ closed, with a carry (old descriptor kept for reading)
 *     ▲                 │                             │
 *     └──release()──────┘          open() + copyCarry(): the carry's bytes go first, then the old fd closes
 *
 * A descriptor is closed exactly once: by {@link release}, by the carry's end, or (EBADF) never, because
 * someone else already closed that number and closing it again could close a file the host opened since.
 */
export class Transcript {
  readonly filePath: string
  readonly dir: string
  readonly #sessionId: string
  readonly #error: ErrorFactory
  readonly #checkIntervalMs: number
  // The directory entries made for this transcript (its directory's levels, the file itself): fsynced by
  // sync() before it resolves, so a power cut cannot take away a file whose records were acknowledged.
  readonly #entries: io.NewEntries

  #fd: number | null = null
  #dev = 0
  #ino = 0
  // Size of the file as our writes (and what it held when opened) left it.
  #size = 0
  // End of the last complete line in the file: what follows may be a record of ours written in part.
  #lineEnd = 0
  // A line end at which the path was last found to name this file; the bytes beyond it are the ones a
  // replacement could take away from the path.
  #verifiedLineEnd = 0
  // The file ended inside a line that is not ours (a torn tail) when opened: the next write starts with one.
  #needsNewline = false
  // Remembered only after a mkdir succeeded; an ENOENT at open forgets it.
  #dirReady = false
  #lastCheckAt = 0
  // After a write error the path is checked before the next write, whatever the interval.
  #suspect = false
  #carry: Carry | null = null
  // A write handed to the OS and not yet returned: a synchronous drain taking over must account for it.
  #inFlight: InFlight | null = null
  // What the open file starts and ends with, as far as we know: a path check compares it, not just the size.
  readonly #expected = new ExpectedContent()

  // Counters for stats(), read at once through `counts`.
  #writes = 0
  #bytesWritten = 0
  #retries = 0

  constructor(
    filePath: string,
    dir: string,
    sessionId: string,
    checkIntervalMs: number,
    error: ErrorFactory,
    durable = false,
  ) {
    this.filePath = filePath
    this.dir = dir
    this.#sessionId = sessionId
    this.#checkIntervalMs = checkIntervalMs
    this.#error = error
    this.#entries = new io.NewEntries(durable)
  }

  /** Completed writes, the bytes they wrote, and the calls retried after a transient error. */
  get counts(): { readonly writes: number; readonly bytesWritten: number; readonly retries: number } {
    return { writes: this.#writes, bytesWritten: this.#bytesWritten, retries: this.#retries }
  }

  get isOpen(): boolean {
    return this.#fd !== null
  }

  get size(): number {
    return this.#size
  }

  get hasCarry(): boolean {
    return this.#carry !== null
  }

  get inFlight(): InFlight | null {
    return this.#inFlight
  }

  get descriptor(): number | null {
    return this.#fd
  }

  /** Checking the path before the next write is due: the interval passed, or a write failed. */
  checkDue(now: number): boolean {
    if (this.#suspect) return true
    return this.#checkIntervalMs === 0 || now - this.#lastCheckAt >= this.#checkIntervalMs
  }

  *ensureDir(): io.Io<void> {
    if (this.#dirReady) return
    try {
      yield* this.#entries.makeDir(this.dir, DIR_MODE)
    } catch (error) {
      throw this.#error(RecorderErrorCode.DIR_FAILED, `could not create the directory ${this.dir}`, error)
    }
    this.#dirReady = true
  }

  /**
   * Opens (creating if missing) the file at the path. A non-empty file must be one of ours (its first line
   * starts with our envelope): a file we did not write is never written. `continuing`: a record of ours was
   * half written into this same file before the descriptor was lost, so a last line without its newline is
   * ours to finish, not a torn line to close.
   */
  *open(continuing: boolean): io.Io<void> {
    yield* this.ensureDir()
    let fd: number
    try {
      fd = yield* io.open(this.filePath, OPEN_FLAGS, FILE_MODE)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', error)
      // The directory was removed since it was created: create it again, once, and retry.
      this.#dirReady = false
      yield* io.forgetDir(this.dir)
      yield* this.ensureDir()
      try {
        fd = yield* io.open(this.filePath, OPEN_FLAGS, FILE_MODE)
      } catch (retryError) {
        if (errorCode(retryError) === 'ENOENT') this.#dirReady = false
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', retryError)
      }
    }
    let stats: FileIdentity
    let endsWithNewline = true
    try {
      stats = yield* io.fstat(fd)
      if (!stats.isFile) {
        throw this.#error(
          RecorderErrorCode.NOT_A_FILE,
          'something other than a regular file (a FIFO, a socket, a device) is at the transcript path; it is never written',
          undefined,
        )
      }
      if (stats.size > 0) {
        // A file we did not write is never written: its first line must be one of this session's records.
        const foreign = yield* this.#whyNotOurs(fd, stats.size)
        if (foreign !== null) {
          throw this.#error(
            RecorderErrorCode.FOREIGN_FILE,
            `the file at the transcript path was not written by sessiontape for this session (${foreign}); it is left untouched`,
            undefined,
          )
        }
      }
      const tail = yield* this.#expected.adopt(fd, stats.size)
      endsWithNewline = tail.length === 0 || tail[tail.length - 1] === NEWLINE
    } catch (error) {
      yield* io.close(fd)
      if (error instanceof RecorderError) throw error
      throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not inspect the opened transcript', error)
    }
    this.#fd = fd
    this.#entries.opened(this.dir)
    this.#dev = stats.dev
    this.#ino = stats.ino
    this.#size = stats.size
    this.#lineEnd = stats.size
    this.#verifiedLineEnd = stats.size
    this.#needsNewline = !endsWithNewline && !continuing
    this.#lastCheckAt = Date.now()
    this.#suspect = false
    if (this.#carry !== null) yield* planCarry(this.#carry, fd, stats.size)
  }

  /**
   * Does the path still name the open file, holding what our writes left in it? One lstat, one fstat, and
   * two short reads (the file's first bytes and the bytes our last write ended with: the size alone cannot
   * tell a file overwritten in place). A replaced or deleted file is let go (its descriptor kept to carry
   * what the path lacks), and so is one overwritten in place by something not ours.
   */
  *check(): io.Io<PathCheck> {
    const fd = this.#fd!
    let replaced: boolean
    let missing = false
    try {
      const named = yield* io.lstat(this.filePath)
      replaced = named.isSymbolicLink || named.ino !== this.#ino || named.dev !== this.#dev
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not check the transcript path', error)
      replaced = true
      missing = true
    }
    this.#lastCheckAt = Date.now()
    this.#suspect = false
    if (replaced) {
      const surplus = this.#letGo(fd)
      if (surplus !== null) yield* closeQuietly(surplus)
      return { kind: 'replaced', missing, carried: this.#carryLength() }
    }
    const from = this.#size
    const size = (yield* io.fstat(fd)).size
    const match = size === 0 ? 'intact' : yield* this.#expected.compare(fd, from, size)
    if (match === 'intact' && size === from) {
      this.#verifiedLineEnd = this.#lineEnd
      return { kind: 'same' }
    }
    if (match === 'rewritten') {
      const foreign = yield* this.#whyNotOurs(fd, size)
      if (foreign !== null) {
        // Not ours any more: never written again. The bytes we wrote are gone, so there is nothing to carry.
        this.#fd = null
        yield* closeQuietly(fd)
        return { kind: 'overwritten', reason: foreign }
      }
      const lastUuid = yield* lastUuidOf(fd, size)
      yield* this.#adoptEnd(fd, size, true)
      return { kind: 'rewritten', from, to: size, lastUuid }
    }
    yield* this.#adoptEnd(fd, size, size > from)
    if (size > from) return { kind: 'grown', from, to: size, interleaved: match === 'interleaved' }
    return { kind: 'truncated', from, to: size }
  }

  /**
   * Before a write: the file still ends with the bytes our writes left, where they left them (one short
   * read). When it does not, the caller checks first: a file overwritten in place is never written, and
   * bytes someone appended (a partial line, say) are never glued to our next record.
   */
  *unchanged(): io.Io<boolean> {
    if (this.#fd === null) return true
    return yield* this.#expected.endsAsExpected(this.#fd, this.#size)
  }

  /** The file is `size` bytes long now, and writing goes on after whatever ends it, on a line of its own. */
  *#adoptEnd(fd: number, size: number, allVerified: boolean): io.Io<void> {
    this.#size = size
    this.#lineEnd = allVerified ? size : Math.min(this.#lineEnd, size)
    this.#verifiedLineEnd = allVerified ? size : Math.min(this.#verifiedLineEnd, size)
    const tail = yield* this.#expected.adopt(fd, size)
    // Whoever changed it may have left it ending inside a line: ours start on a line of their own.
    this.#needsNewline = tail.length > 0 && tail[tail.length - 1] !== NEWLINE
  }

  /** Why the file open as `fd` (`size` bytes, not empty) is not one of this session's, or null if it is. */
  *#whyNotOurs(fd: number, size: number): io.Io<string | null> {
    const first = yield* bytesAt(fd, 0, Math.min(OWNERSHIP_PREFIX_BYTES, size))
    const ownership = ownershipOfPrefix(first, size)
    if (ownership.verdict !== 'ours' && ownership.verdict !== 'empty') return ownership.reason
    const session = sessionOfPrefix(first)
    // A copy of another session's transcript: two sessions must never mix in one file.
    if (session !== null && session !== this.#sessionId)
      return `its records belong to session ${JSON.stringify(session)}`
    return null
  }

  /** After a write error: check the path before the next write. */
  markSuspect(): void {
    this.#suspect = true
  }

  /**
   * Writes `buffer[from..]` at the end of the transcript, continuing partial writes and retrying transient
   * errors; `progress` hears of every byte that landed (also of bytes a synchronous drain found landed on
   * this write's behalf). A torn line left by someone else is ended first.
   */
  *append(buffer: Uint8Array, from: number, progress: (bytes: number) => void): io.Io<void> {
    if (this.#needsNewline) {
      yield* this.#appendRaw(Buffer.of(NEWLINE), 0, () => {
        this.#needsNewline = false
        this.#lineEnd = this.#size
      })
    }
    yield* this.#appendRaw(buffer, from, progress)
  }

  /** The last complete line now ends at the end of the file (a chunk of whole records was written). */
  markLineEnd(): void {
    this.#lineEnd = this.#size
  }

  *#appendRaw(buffer: Uint8Array, from: number, progress: (bytes: number) => void): io.Io<void> {
    const fd = this.#fd!
    let offset = from
    let transientFailures = 0
    while (offset < buffer.length) {
      if (yield* io.requireLock()) {
        // The lock was lost since the file was last checked: whether somebody wrote meanwhile only a check of
        // the file can tell (see Custody). This attempt ends; the next one checks first.
        this.#suspect = true
        throw this.#error(
          RecorderErrorCode.LOCK_COMPROMISED,
          'the session lock was lost while writing and taken again; the transcript is checked before writing on',
          undefined,
        )
      }
      const landed = (bytes: number): void => {
        this.#expected.landed(this.#size, buffer.subarray(offset, offset + bytes))
        offset += bytes
        this.#size += bytes
        this.#writes++
        this.#bytesWritten += bytes
        progress(bytes)
      }
      this.#inFlight = { base: this.#size, length: buffer.length - offset, landed }
      let written: number
      try {
        written = yield* io.write(fd, buffer, offset, buffer.length - offset)
      } catch (error) {
        this.#inFlight = null
        if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
          this.#retries++
          yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
          continue
        }
        this.#suspect = true
        // Someone closed our descriptor: the number is no longer ours to use or to close (it may already name
        // a file the host opened since). Forget it; the next attempt opens the transcript again.
        if (errorCode(error) === 'EBADF' && this.#fd === fd) this.#fd = null
        throw this.#error(RecorderErrorCode.WRITE_FAILED, 'write to the transcript failed', error)
      }
      this.#inFlight = null
      landed(written)
      if (written === 0) {
        if (transientFailures >= TRANSIENT_RETRIES) {
          throw this.#error(RecorderErrorCode.WRITE_FAILED, 'the transcript accepted no bytes', undefined)
        }
        this.#retries++
        yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
      }
    }
  }

  /** A synchronous drain took over: the write the async run left in flight landed this many bytes. */
  settleInFlight(landedBytes: number): void {
    const inFlight = this.#inFlight
    this.#inFlight = null
    if (inFlight !== null && landedBytes > 0) inFlight.landed(landedBytes)
  }

  *sync(): io.Io<void> {
    const fd = this.#fd!
    let transientFailures = 0
    for (;;) {
      try {
        yield* io.fdatasync(fd)
        break
      } catch (error) {
        if (isTransient(error) && transientFailures < TRANSIENT_RETRIES) {
          this.#retries++
          yield* io.sleep(TRANSIENT_FIRST_DELAY_MS << transientFailures++)
          continue
        }
        throw this.#error(RecorderErrorCode.FSYNC_FAILED, 'fdatasync of the transcript failed', error)
      }
    }
    try {
      yield* this.#entries.sync()
    } catch (error) {
      throw this.#error(
        RecorderErrorCode.FSYNC_FAILED,
        "fsync of the transcript's directory failed (the file may not survive a power cut)",
        error,
      )
    }
  }

  /**
   * Copies the carry into the file now at the path, before anything else is written there, then closes the
   * old descriptor. Returns how many bytes were carried.
   */
  *copyCarry(): io.Io<number> {
    const carry = this.#carry!
    yield* copyCarry(carry, (buffer, from, progress) => this.append(buffer, from, progress), this.#error)
    this.#lineEnd = this.#size
    this.#carry = null
    yield* closeQuietly(carry.fd)
    return carry.copied
  }

  /**
   * Gives up every descriptor this transcript owns, for the caller to close (exactly once): the open one and
   * the carry's. After this the transcript is closed and holds nothing.
   */
  detach(): number[] {
    const fds: number[] = []
    if (this.#fd !== null) fds.push(this.#fd)
    if (this.#carry !== null && this.#carry.fd !== this.#fd) fds.push(this.#carry.fd)
    this.#fd = null
    this.#carry = null
    this.#inFlight = null
    return fds
  }

  #carryLength(): number {
    const carry = this.#carry
    return carry === null ? 0 : carry.end - carry.start
  }

  /** Drops `fd` as the transcript; returns it if nothing needs it any more (the caller closes it). */
  #letGo(fd: number): number | null {
    this.#fd = null
    const previous = this.#carry
    if (previous !== null) {
      // Replaced again before the carry was complete: the bytes to carry are still the older file's, and what
      // was copied so far went away with the file just replaced, so the copy starts over. The descriptor of
      // that intermediate file holds nothing we need.
      previous.copied = 0
      return previous.fd === fd ? null : fd
    }
    // Kept even when every byte was confirmed at the path: the file put there may be an older copy, and
    // what it lacks (found by its last record) is read back from this descriptor.
    this.#carry = { fd, start: this.#verifiedLineEnd, end: this.#size, copied: 0 }
    return null
  }
}

function* closeQuietly(fd: number): io.Io<void> {
  try {
    yield* io.close(fd)
  } catch {
    // The file is let go either way; the descriptor is not ours any more.
  }
}
