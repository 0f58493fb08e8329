import { constants } from 'node:fs'

import { nodeFs } from '../util/recorder-fs.js'
import { describeValue } from '../util/describe-value.js'
import { OWNERSHIP_PREFIX_BYTES, ownershipOfPrefix } from '../format/file-ownership.js'
import { ForeignFileError } from '../format/foreign-file-error.js'
import { withSessionLock } from '../lock/with-session-lock.js'
import { recoveredRecord } from '../write/resume/resume.js'
import { lineOf } from '../write/serialize/serialize-record.js'
import * as io from '../write/loop/io.js'
import { inspectTailSync, notARegularFile } from '../write/resume/inspect-tail.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'
import { NEWLINE } from '../format/record-format.js'

export interface RepairTornTailOptions {
  /**
   * Where the valid part ends (from {@link inspectTailSync}); everything after it is the torn tail.
   * @default what inspectTailSync finds now
   */
  readonly validLength?: number
}

/** What an append-only repair of a torn tail did. */
export interface TornTailRepair {
  /** uuid of the `recovered` record appended, or null when nothing was torn. */
  readonly recoveredUuid: string | null
  /** Where the torn bytes start; they are still there. */
  readonly tornOffset: number
  /** How many torn bytes the `recovered` record names (0: nothing was torn). */
  readonly tornLength: number
}

// Appending, never creating: a repair of a file that is not there has nothing to repair.
// O_NONBLOCK: a FIFO at the path cannot block the open; it is then refused (only a regular file is repaired).
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * Repairs a transcript whose only damage is a torn tail the way a resuming recorder does, append-only: the
 * torn bytes stay where they are (so a log shipper's read offset stays valid), a newline ends them if they
 * do not end with one, and a `recovered` record naming their byte range is appended and synced. Readers
 * then report those bytes as recovered, not as damage. Takes the session lock (a live writer makes it
 * return `undefined`; a provably dead one is taken over) and refuses a file that is not ours
 * (`ForeignFileError`, the file untouched).
 */
export async function repairTornTail(
  filePath: string,
  options: RepairTornTailOptions = {},
): Promise<TornTailRepair | undefined> {
  checkValidLength(options)
  const locked = await withSessionLock(filePath, () =>
    io.runAsync(appendRecovery(filePath, options.validLength), {
      fs: nodeFs,
      lock: () => Promise.resolve('ok' as const),
      isCurrent: () => true,
    }),
  )
  return locked?.value
}

/**
 * The same, synchronously, for a caller that must repair before it returns. It does not take the session
 * lock: the caller must hold it (or know that no recorder writes this session).
 */
export function repairTornTailSync(filePath: string, options: RepairTornTailOptions = {}): TornTailRepair {
  checkValidLength(options)
  return io.runSync(appendRecovery(filePath, options.validLength), { fs: nodeFs, lock: () => 'ok' as const })
}

function* appendRecovery(filePath: string, validLengthGiven: number | undefined): io.Io<TornTailRepair> {
  const tail = inspectTailSync(filePath)
  const validLength = validLengthGiven ?? tail.validLength
  const fd = yield* io.open(filePath, APPEND_FLAGS, 0o600)
  let result: TornTailRepair
  try {
    const { size, isFile } = yield* io.fstat(fd)
    if (!isFile) throw notARegularFile(filePath)
    const prefix = Buffer.alloc(Math.min(OWNERSHIP_PREFIX_BYTES, size))
    const got = size === 0 ? 0 : yield* io.read(fd, prefix, 0, prefix.length, 0)
    const ownership = ownershipOfPrefix(prefix.subarray(0, got), size)
    if (ownership.verdict !== 'ours' && ownership.verdict !== 'empty') {
      throw new ForeignFileError(filePath, ownership.verdict, ownership.reason)
    }
    if (size <= validLength) {
      result = { recoveredUuid: null, tornOffset: validLength, tornLength: 0 }
    } else {
      const last = Buffer.alloc(1)
      yield* io.read(fd, last, 0, 1, size - 1)
      const sessionId = tail.lastRecord?.sessionId ?? sessionIdOf(filePath)
      const torn = { offset: validLength, length: size - validLength }
      const recovered = recoveredRecord(JSON.stringify(sessionId), tail.lastRecord?.uuid ?? null, torn)
      const line = Buffer.from(`${last[0] === NEWLINE ? '' : '\n'}${lineOf(recovered.serialized)}`)
      for (let written = 0; written < line.length;) {
        written += yield* io.write(fd, line, written, line.length - written)
      }
      yield* io.fdatasync(fd)
      result = { recoveredUuid: recovered.uuid, tornOffset: torn.offset, tornLength: torn.length }
    }
  } catch (error) {
    yield* io.close(fd)
    throw error
  }
  yield* io.close(fd)
  return result
}

/** The session id a transcript's name gives (`<id>.jsonl`), for a file with no valid record to ask. */
function sessionIdOf(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1)
  return name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name
}

function checkValidLength(options: RepairTornTailOptions): void {
  rejectUnknownOptions(options, ['validLength'], 'repairTornTail()')
  const validLength: unknown = options?.validLength
  if (validLength === undefined) return
  if (!(typeof validLength === 'number' && Number.isSafeInteger(validLength) && validLength >= 0)) {
    throw new TypeError(
      `Expected \`validLength\` to be a non-negative integer, got \`${describeValue(validLength)}\` (${typeof validLength})`,
    )
  }
}
