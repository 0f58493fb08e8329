import { bytesAt } from './file-scan.js'
import { HEAD_BYTES, TAIL_BYTES } from './expected-content.js'
import * as io from '../loop/io.js'

/**
 * Someone changing the transcript in place does it in steps: `cat other > file` (or an editor's save, or
 * `writeFile`) truncates the file first and writes it afterwards, maybe in several writes. A path check
 * that lands between two steps sees a file that is not what it will be: empty, or half written. Anything
 * we appended then would land where their next write goes — our bytes inside their file, or theirs over
 * ours. So a file found shorter than we left it, or rewritten, is looked at again after a pause, until two
 * looks agree, before anything is decided about it or written into it.
 */

// The pause between two looks: far longer than the gap between the truncation and the writes of one
// rewrite (microseconds; a few milliseconds for a descheduled process on a loaded machine), and paid only
// when someone else changed the file.
export const STILL_MS = 100
// Looks before giving up for now (the attempt fails, the records stay queued and are tried again later).
const MAX_LOOKS = 10
/** How long a file may keep changing before an attempt gives up for now. */
export const STILL_WAIT_MS = STILL_MS * (MAX_LOOKS - 1)

interface Look {
  readonly size: number
  readonly head: Buffer
  readonly tail: Buffer
}

function* look(fd: number): io.Io<Look> {
  const { size } = yield* io.fstat(fd)
  const head = yield* bytesAt(fd, 0, Math.min(HEAD_BYTES, size))
  const tail = yield* bytesAt(fd, Math.max(0, size - TAIL_BYTES), Math.min(TAIL_BYTES, size))
  return { size, head, tail }
}

/**
 * The size of the file open as `fd` once two looks `STILL_MS` apart find the same size, first bytes and last
 * bytes; null when it was still changing after {@link MAX_LOOKS} looks.
 */
export function* untilStill(fd: number): io.Io<number | null> {
  let seen = yield* look(fd)
  for (let looks = 1; looks < MAX_LOOKS; looks++) {
    yield* io.sleep(STILL_MS)
    const now = yield* look(fd)
    if (now.size === seen.size && now.head.equals(seen.head) && now.tail.equals(seen.tail)) return now.size
    seen = now
  }
  return null
}
