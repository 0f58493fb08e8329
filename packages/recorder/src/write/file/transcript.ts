import { RecorderError, RecorderErrorCode } from '../../errors.js'
import type { FileIdentity } from '../../util/recorder-fs.js'
import { errorCode } from '../../util/transient-errors.js'
import { type Carry, carryOnLetGo, copyCarry, gluedRecordCarry, planCarry } from '../tamper/carry.js'
import { ExpectedContent } from '../tamper/expected-content.js'
import { FileEnd } from '../tamper/file-end.js'
import { lastUuidOf } from '../tamper/file-scan.js'
import type { InFlight } from '../loop/in-flight-write.js'
import * as io from '../loop/io.js'
import type { ErrorFactory, PathCheck } from '../tamper/path-outcome.js'
import { PresentRecords } from '../tamper/present-records.js'
import type { Chunk } from '../queue/record-queue.js'
import { closeQuietly, inspectOpened, TranscriptDir, whyNotOurs } from './transcript-file.js'
import { syncAll, type WriteHost, writeAll, WriteCounts } from './transcript-write.js'
import { untilStill } from '../tamper/until-still.js'
import { NEWLINE } from '../../format/record-format.js'

export type { ErrorFactory, Lost, PathCheck } from '../tamper/path-outcome.js'

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
  readonly #dir: TranscriptDir

  #fd: number | null = null
  #dev = 0
  #ino = 0
  #lastCheckAt = 0
  // After a write error the path is checked before the next write, whatever the interval.
  #suspect = false
  #carry: Carry | null = null
  // A write handed to the OS and not yet returned: a synchronous drain taking over must account for it.
  #inFlight: InFlight | null = null
  // What the open file starts and ends with, as far as we know: a path check compares it, not just the size.
  readonly #expected = new ExpectedContent()
  // Where the file ends as our writes and checks left it (size, line ends, a torn line to end, last write).
  readonly #end = new FileEnd(this.#expected)
  // How many of our records the file holds: what a cut or an overwrite took is counted from it.
  readonly #records = new PresentRecords()

  // Counters for stats(), read at once through `counts`.
  readonly #counts = new WriteCounts()
  /** Completed writes, the bytes they wrote, and the calls retried after a transient error. */
  readonly counts: Readonly<WriteCounts> = this.#counts
  // What the write loop (transcript-write.ts) needs of this transcript; it changes nothing else.
  readonly #writeHost: WriteHost = {
    error: (...args) => this.#error(...args),
    counts: this.#counts,
    size: () => this.#end.size,
    lockLost: () => this.#lockLost(),
    landed: (bytes) => this.#end.landed(bytes),
    setInFlight: (inFlight) => void (this.#inFlight = inFlight),
    failed: (fd, badDescriptor) => {
      this.#suspect = true
      if (!badDescriptor) return
      if (this.#fd === fd) this.#fd = null
      // The number may name someone else's file by now: nothing is ever read from it (a glued record's carry).
      if (this.#carry?.fd === fd) this.#carry = null
    },
  }

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
    this.#dir = new TranscriptDir(dir, this.#entries, error)
  }

  get isOpen(): boolean {
    return this.#fd !== null
  }

  get size(): number {
    return this.#end.size
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
    yield* this.#dir.ensure()
  }

  /**
   * Opens (creating if missing) the file at the path. A non-empty file must be one of ours (its first line
   * starts with our envelope): a file we did not write is never written. `continuing`: a record of ours was
   * half written into this same file before the descriptor was lost, so a last line without its newline is
   * ours to finish, not a torn line to close.
   */
  *open(continuing: boolean): io.Io<void> {
    const { fd, created } = yield* this.#dir.open(this.filePath)
    let stats: FileIdentity
    let endsWithNewline = true
    try {
      const ins = [fd, created, this.#records.began, this.#sessionId, this.#error, this.#expected] as const
      const { stats: found, tail } = yield* inspectOpened(...ins)
      stats = found
      endsWithNewline = tail.length === 0 || tail[tail.length - 1] === NEWLINE
      if (this.#carry !== null) yield* planCarry(this.#carry, fd, stats.size, created)
      yield* this.#records.opened(fd, stats.size)
    } catch (error) {
      yield* io.close(fd)
      if (error instanceof RecorderError) throw error
      throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not inspect the opened transcript', error)
    }
    this.#fd = fd
    this.#entries.opened(this.dir)
    this.#dev = stats.dev
    this.#ino = stats.ino
    this.#end.opened(stats.size, !endsWithNewline && !continuing)
    this.#lastCheckAt = Date.now()
    this.#suspect = false
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
      // Cut or appended to before it left the path: handled against this file first (the cut reported and
      // counted, a record glued to someone's line marked to be written again); the next check lets it go.
      const changed = yield* this.#changedBeforeLeaving(fd)
      if (changed !== null) {
        // Checked again before anything is written (a glued record's carry too): it goes to the path.
        this.#suspect = true
        return changed
      }
      const surplus = this.#letGo(fd)
      if (surplus !== null) yield* closeQuietly(surplus)
      const carried = this.#carry === null ? 0 : this.#carry.end - this.#carry.start
      return { kind: 'replaced', missing, carried }
    }
    const from = this.#end.size
    let size = (yield* io.fstat(fd)).size
    let match = yield* this.#expected.compare(fd, from, size)
    if (match === 'rewritten' || size < from) {
      // Cut or rewritten in place: maybe half way through someone's rewrite. Decide once it is still.
      const still = yield* untilStill(fd)
      if (still === null) return { kind: 'changing' }
      size = still
      match = yield* this.#expected.compare(fd, from, size)
    }
    if (match === 'intact' && size === from) {
      this.#end.verified()
      return { kind: 'same' }
    }
    if (match === 'rewritten') {
      // Read before the check that the file is ours, not after: see ExpectedContent.takeHead.
      const head = yield* this.#expected.readHead(fd, size)
      const overwritten = yield* this.#overwritten(fd, size)
      if (overwritten !== null) return overwritten
      this.#expected.takeHead(head)
      const lastUuid = yield* lastUuidOf(fd, size)
      const lost = yield* this.#records.cutTo(fd, size)
      yield* this.#adoptAfterCut(fd, size, true)
      if (this.#carry !== null && this.#carry.fd !== fd) yield* planCarry(this.#carry, fd, size, false)
      return { kind: 'rewritten', from, to: size, lastUuid, ...lost }
    }
    if (size > from) {
      const interleaved = match === 'interleaved'
      // Where our last write ends (their bytes before it, maybe more after it): read before adopting the end.
      const ourEnd = interleaved ? yield* this.#expected.shiftedEnd(fd, from, size) : null
      yield* this.#end.adopt(fd, size, true)
      const rewriting = ourEnd !== null && (yield* this.#rewriteGlued(fd, ourEnd, size, from))
      return { kind: 'grown', from, to: size, interleaved, rewriting }
    }
    return yield* this.#truncatedTo(fd, size)
  }

  /**
   * The open file, no longer at the path, was cut, or someone appended to it, since our last write: the
   * cut, else null. Either way what is carried from it ends where the file ends now, not where our writes
   * left it; an unfinished line of theirs in it is skipped.
   */
  *#changedBeforeLeaving(fd: number): io.Io<PathCheck | null> {
    const from = this.#end.size
    const size = (yield* io.fstat(fd)).size
    if (size === from) return null
    const match = yield* this.#expected.compare(fd, from, size)
    if (match === 'rewritten') {
      // Rewritten by someone else (as their file) before it left: our last write may have raced it.
      const overwritten = yield* this.#overwritten(fd, size)
      if (overwritten !== null) return overwritten
      // Rewritten with this session's records (a copy put back in place, or our own write starting the file
      // again after someone cut it to nothing, racing that cut): what it lost is counted before it is let go,
      // as check() counts it for a file still at the path; what it holds now is carried from it.
      const lastUuid = yield* lastUuidOf(fd, size)
      const lost = yield* this.#records.cutTo(fd, size)
      yield* this.#adoptAfterCut(fd, size, false)
      return { kind: 'rewritten', from, to: size, lastUuid, ...lost }
    }
    if (size < from) return yield* this.#truncatedTo(fd, size)
    if (match !== 'interleaved') return null
    // Appended to: let go now, the carry skipping their bytes (a record glued to them is carried whole). It
    // ends where our last write ends: what was appended after it is theirs, maybe an unfinished line.
    const ourEnd = (yield* this.#expected.shiftedEnd(fd, from, size)) ?? size
    yield* this.#end.adopt(fd, ourEnd, false)
    yield* this.#rewriteGlued(fd, ourEnd, ourEnd, from, true)
    return null
  }

  /** The open file (`size` bytes) rewritten in place as a file not ours: let go, nothing carried; else null. */
  *#overwritten(fd: number, size: number): io.Io<PathCheck | null> {
    const foreign = yield* whyNotOurs(fd, size, this.#sessionId)
    if (foreign === null) return null
    // Our last write raced their rewrite (it landed after their truncation): its bytes end their file, or
    // are in it before bytes they wrote after it.
    const raced =
      (yield* this.#expected.endsWithOurs(fd, size)) ||
      (yield* this.#expected.lastWriteEnd(fd, size, this.#end.lastWrite)) !== null
    // Not ours any more: never written again. The bytes we wrote are gone, so there is nothing to carry, and
    // a glued record's carry from this file goes with them (counted below): the closed number may soon name
    // someone else's file, and is never read again.
    this.#fd = null
    if (this.#carry?.fd === fd) this.#carry = null
    yield* closeQuietly(fd)
    const lost = this.#records.nowHolds({ present: 0, count: 0, exact: true })
    return { kind: 'overwritten', reason: foreign, raced: raced ? this.#end.lastWrite.length : 0, ...lost }
  }

  /** The open file was cut to `size` bytes (what was left of it is ours): counted, and writing goes on after. */
  *#truncatedTo(fd: number, size: number): io.Io<PathCheck> {
    const from = this.#end.size
    const lost = yield* this.#records.cutTo(fd, size)
    yield* this.#adoptAfterCut(fd, size, false)
    // Cut before the carry into it was made: what it lacks now is found again from what it holds now.
    if (this.#carry !== null && this.#carry.fd !== fd) yield* planCarry(this.#carry, fd, size, false)
    return { kind: 'truncated', from, to: size, ...lost }
  }

  /**
   * The open file was cut, or rewritten with our records, to `size` bytes: writing goes on at its end.
   * Our last write may have landed after the cut (a race with it; someone may have appended since, so it
   * does not always end the file): a record of it glued to the cut line is written again, and, unless the
   * path was just found naming the file (`allVerified`), the carry should the file leave the path starts no
   * later than that write. Looked for before the end is adopted, which forgets that write's bytes.
   */
  *#adoptAfterCut(fd: number, size: number, allVerified: boolean): io.Io<void> {
    const ourEnd = yield* this.#expected.lastWriteEnd(fd, size, this.#end.lastWrite)
    yield* this.#end.adopt(fd, size, allVerified)
    if (ourEnd === null) return
    if (!allVerified) this.#end.lastWriteLandedAfterCut(ourEnd)
    yield* this.#rewriteGlued(fd, ourEnd, size)
  }

  /**
   * Our last write ends at `ourEnd` (the file is `size` bytes long: bytes after it are someone else's), but
   * someone changed what came before it (appended, or cut the file) between the read that checked the file
   * and the write: a race of microseconds. If their bytes did not end with a newline, the first record of
   * that write is glued to their line and no reader can parse it: it is written again, whole, on a line of
   * its own (by a carry from this same file; the damaged line stays, as everything written does). True when
   * it will be.
   */
  *#rewriteGlued(fd: number, ourEnd: number, size: number, ours?: number, leaving = false): io.Io<boolean> {
    if (this.#carry !== null) return false
    // Appended to (`ours`: where our writes had left the end): their bytes, up to our last write, are theirs.
    const theirsFrom = ours === undefined ? undefined : ours - this.#end.lastWrite.length
    this.#carry = yield* gluedRecordCarry(fd, ourEnd, size, this.#end.lastWrite, theirsFrom, leaving)
    return this.#carry !== null
  }

  /**
   * Before a write: the file still starts with its first line and ends with the bytes our writes left,
   * where they left them (two short reads, the first line first). When it does not, the caller checks
   * first: a file overwritten in place is never written, and bytes someone appended (a partial line, say)
   * are never glued to our next record.
   */
  *unchanged(): io.Io<boolean> {
    if (this.#fd === null) return true
    return yield* this.#expected.endsAsExpected(this.#fd, this.#end.size)
  }

  /** Before each write call: the call must not be made (see io.LockOutcome; the next attempt checks first). */
  *#lockLost(): io.Io<boolean> {
    const outcome = yield* io.requireLock()
    // Confirmed only after a wait: bytes someone wrote meanwhile must not have ours glued after them.
    return outcome === 'recheck' || (outcome === 'reread' && !(yield* this.unchanged()))
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
    if (this.#end.needsNewline) {
      yield* writeAll(this.#writeHost, this.#fd!, Buffer.of(NEWLINE), 0, () => this.#end.newlineWritten())
    }
    yield* writeAll(this.#writeHost, this.#fd!, buffer, from, progress)
  }

  /** A chunk was written in full; this recorder has written `count` records once it was. */
  committed(chunk: Chunk, count: number): void {
    // A chunk of whole records: the last complete line now ends at the end of the file.
    if (chunk.nextHeadChars === 0) this.#end.lineEnded()
    this.#records.committed(chunk.completes, chunk.lastUuid, count)
  }

  /** A synchronous drain took over: the write the async run left in flight landed this many bytes. */
  settleInFlight(landedBytes: number): void {
    const inFlight = this.#inFlight
    this.#inFlight = null
    if (inFlight !== null && landedBytes > 0) inFlight.landed(landedBytes)
  }

  *sync(): io.Io<void> {
    yield* syncAll(this.#fd!, this.#entries, this.#counts, this.#error)
  }

  /**
   * Copies the carry into the file now at the path, before anything else is written there, then closes the
   * old descriptor. Returns how many bytes were carried.
   */
  *copyCarry(): io.Io<number> {
    const carry = this.#carry!
    // From this same file: a record glued to someone's line, written again (it was counted once already).
    const own = carry.fd === this.#fd
    yield* copyCarry(
      carry,
      (buffer, from, progress) => this.append(buffer, from, progress),
      (uuid) => (own ? this.#records.moved(uuid) : this.#records.carried(uuid)),
      this.#error,
    )
    this.#end.lineEnded()
    // A cut line carried is not finished by our next record: that goes on a line of its own — if the carry
    // ended inside it. Carried as nothing (someone else's line, or nothing left to carry), the file is as it
    // was: a newline there would be an empty line, the first of a new file, which makes the file not ours
    // to any later open. (A carry that ends inside a record of ours being written in parts is not torn.)
    if (carry.torn && carry.lineHead.length > 0) this.#end.endsInsideLine()
    this.#carry = null
    if (!own) yield* closeQuietly(carry.fd)
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

  /** Drops `fd` as the transcript; returns it if nothing needs it any more (the caller closes it). */
  #letGo(fd: number): number | null {
    this.#fd = null
    const { carry, surplus } = carryOnLetGo(this.#carry, fd, {
      verifiedLineEnd: this.#end.verifiedLineEnd,
      size: this.#end.size,
      torn: this.#end.needsNewline,
    })
    this.#carry = carry
    return surplus
  }
}
