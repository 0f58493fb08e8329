import { constants } from 'node:fs'

import { RecorderErrorCode } from '../../errors.js'
import { OWNERSHIP_PREFIX_BYTES, ownershipOfPrefix, sessionOfPrefix } from '../../format/file-ownership.js'
import type { FileIdentity } from '../../util/recorder-fs.js'
import { errorCode } from '../../util/transient-errors.js'
import type { ExpectedContent } from '../tamper/expected-content.js'
import { bytesAt } from '../tamper/file-scan.js'
import * as io from '../loop/io.js'
import type { ErrorFactory } from '../tamper/path-outcome.js'
import { changingMessage } from '../tamper/path-reports.js'
import { untilStill } from '../tamper/until-still.js'

/** What every open of the transcript checks before the file is used: is it a file, is it ours, is it still. */

// O_RDWR (not O_WRONLY) so the file can be read back (its first and last bytes at open, a carry after a
// replacement); O_APPEND so every write lands at the end whoever else grew the file; O_NOFOLLOW refuses
// a planted symlink; O_NONBLOCK so opening a FIFO planted at the path cannot block (it is then refused:
// only a regular file is a transcript).
const OPEN_FLAGS =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK
const FILE_MODE = 0o600
/** The transcript's directory (and each level made for it). */
export const DIR_MODE = 0o700
/** Opens the file at `filePath`; `created`: this open made it (so nobody else is writing into it yet). */
export function* openOrCreate(filePath: string): io.Io<{ fd: number; created: boolean }> {
  try {
    return { fd: yield* io.open(filePath, OPEN_FLAGS | constants.O_EXCL, FILE_MODE), created: true }
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error
  }
  return { fd: yield* io.open(filePath, OPEN_FLAGS, FILE_MODE), created: false }
}

/**
 * The transcript's directory: made (every missing level) before the first open, and made again, once, when
 * an open finds it removed since.
 */
export class TranscriptDir {
  readonly #dir: string
  readonly #entries: io.NewEntries
  readonly #error: ErrorFactory
  // Remembered only after a mkdir succeeded; an ENOENT at open forgets it.
  #ready = false

  constructor(dir: string, entries: io.NewEntries, error: ErrorFactory) {
    this.#dir = dir
    this.#entries = entries
    this.#error = error
  }

  *ensure(): io.Io<void> {
    if (this.#ready) return
    try {
      yield* this.#entries.makeDir(this.#dir, DIR_MODE)
    } catch (error) {
      throw this.#error(RecorderErrorCode.DIR_FAILED, `could not create the directory ${this.#dir}`, error)
    }
    this.#ready = true
  }

  /** Opens (creating if missing) the file at `filePath`, in this directory. */
  *open(filePath: string): io.Io<{ fd: number; created: boolean }> {
    yield* this.ensure()
    try {
      return yield* openOrCreate(filePath)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', error)
    }
    // The directory was removed since it was created: create it again, once, and retry.
    this.#ready = false
    yield* io.forgetDir(this.#dir)
    yield* this.ensure()
    try {
      return yield* openOrCreate(filePath)
    } catch (error) {
      if (errorCode(error) === 'ENOENT') this.#ready = false
      throw this.#error(RecorderErrorCode.OPEN_FAILED, 'could not open the transcript', error)
    }
  }
}

/**
 * The file just opened as `fd`, once it may be used: a regular file, empty or one of this session's. Throws
 * (a `RecorderError`) otherwise; the caller closes `fd`. `reopen`: the path named another file before
 * (ours, then deleted or replaced), so whoever put this one there may still be writing it. Its first line
 * and last bytes become `expected`'s expectation; returned with its last bytes.
 */
export function* inspectOpened(
  fd: number,
  created: boolean,
  reopen: boolean,
  sessionId: string,
  error: ErrorFactory,
  expected: ExpectedContent,
): io.Io<{ stats: FileIdentity; tail: Buffer }> {
  let stats = yield* io.fstat(fd)
  // An empty file someone else put where ours was may be their `cat other > file` between its truncation
  // and its writes (see until-still.ts): looked at until it is still before anything is decided or written.
  // (Not at the first open: an empty file there is a session nobody wrote yet, as far as anyone can tell.)
  if (reopen && !created && stats.size === 0 && stats.isFile) {
    if ((yield* untilStill(fd)) === null) {
      throw error(RecorderErrorCode.TRANSCRIPT_CHANGED, changingMessage(), undefined)
    }
    stats = yield* io.fstat(fd)
  }
  if (!stats.isFile) {
    throw error(
      RecorderErrorCode.NOT_A_FILE,
      'something other than a regular file (a FIFO, a socket, a device) is at the transcript path; it is never written',
      undefined,
    )
  }
  // What the file is known by from now on (its first line, its last bytes) is read first, the verdict that
  // it is ours after: a `cat other > file` landing between the two is then found by the verdict (or, after
  // it, by the next check) — never adopted as what we expect there.
  const tail = yield* expected.adopt(fd, stats.size)
  if (stats.size === 0) return { stats, tail }
  // A file we did not write is never written: its first line must be one of this session's records.
  const foreign = yield* whyNotOurs(fd, stats.size, sessionId)
  if (foreign !== null) {
    throw error(
      RecorderErrorCode.FOREIGN_FILE,
      `the file at the transcript path was not written by sessiontape for this session (${foreign}); it is left untouched`,
      undefined,
    )
  }
  return { stats, tail }
}

/** Why the file open as `fd` (`size` bytes, not empty) is not one of this session's, or null if it is. */
export function* whyNotOurs(fd: number, size: number, sessionId: string): io.Io<string | null> {
  const first = yield* bytesAt(fd, 0, Math.min(OWNERSHIP_PREFIX_BYTES, size))
  const ownership = ownershipOfPrefix(first, size)
  if (ownership.verdict !== 'ours' && ownership.verdict !== 'empty') return ownership.reason
  const session = sessionOfPrefix(first)
  // A copy of another session's transcript: two sessions must never mix in one file.
  if (session !== null && session !== sessionId)
    return `its records belong to session ${JSON.stringify(session)}`
  return null
}

/** Closes `fd`, whatever happens: the file is let go either way. */
export function* closeQuietly(fd: number): io.Io<void> {
  try {
    yield* io.close(fd)
  } catch {
    // The file is let go either way; the descriptor is not ours any more.
  }
}
