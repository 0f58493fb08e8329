import type { ChunkBuffers } from './chunk-buffers.js'
import { isHighSurrogate, PIECE_CHARS } from '../serialize/held-text.js'
import {
  lineCharCodeAt as charCodeAt,
  lineChars,
  lineText,
  type QueuedRecord,
} from '../serialize/serialize-record.js'

/**
 * The CPU budget of one event-loop turn, in ms: what the writer spends producing bytes on demand — walking
 * the data of a record handed over, escaping and encoding held strings — before it lets the loop go on. 1.5:
 * with 2 ms slices the tasks' p99 was 4–4.7 ms and their maximum 5–7 ms (bench/huge-tasks.ts), with 1.5
 * p99 3–3.3 ms and maximum 4–5 ms; below that, the writer falls behind a producer of big records.
 */
export const TURN_BUDGET_MS = 1.5

// A slice's buffer: room for what the turn's budget produced last time, plus half of it (the slice ends on
// the clock before it is full unless the rate rose), rounded up to a power of two; not below 64 KiB, so a
// slow slice (a turn the machine took away) does not make the next ones small. The rounding is for reuse:
// ChunkBuffers hands out the last buffer written only when it is big enough, and the rate moves by tens of
// per cent from one slice to the next — sized to each, the `big` workload made 10–12 buffers (22–32 MiB)
// and V8 answered that external memory with 3 mark-compacts per run, up to 5.9 ms each; rounded, 3 buffers
// (5 MiB) and none (bench/big-turns.ts). Before the first slice: about what base64 escapes and
// encodes per ms on the 2-core reference VM.
const SLICE_HEADROOM = 1.5
const MIN_SLICE_BYTES = 64 * 1024
export const INITIAL_BYTES_PER_MS = 1024 * 1024
// Below this many code units a slice (the end of a record) is encoded at once into an exact buffer.
const SHORT_SLICE_CHARS = 16 * 1024
// Escaped, a code unit is at most 6 bytes (`\u001f`, a lone surrogate's `\udc00`).
const MAX_BYTES_PER_UNIT = 6

/** A slice's bytes, where it ends (in code units of the line), and the rate to size the next one by. */
export interface Slice {
  readonly buffer: Buffer
  readonly to: number
  readonly bytesPerMs: number
}

/**
 * The slice of `record`'s line from unit `from`: pieces of at most PIECE_CHARS code units, each escaped
 * (held strings) and encoded at once, until the buffer is full, the record ends or `deadline` (at least one
 * piece); never more than `maxBytes`, never splitting a surrogate pair. The buffer is sized from how fast
 * the last slices went (`bytesPerMs`) — what the turn's budget should produce, with headroom: a buffer is
 * external memory to V8 until it is collected, and sizing every slice for the worst case (6 bytes per code
 * unit) made the `big` workload allocate 9× the bytes it wrote, which V8 answered with more garbage
 * collections.
 */
export function encodeSlice(
  record: QueuedRecord,
  from: number,
  maxBytes: number,
  deadline: number,
  buffers: ChunkBuffers,
  bytesPerMs: number,
): Slice {
  const started = performance.now()
  const total = lineChars(record)
  // A code unit is at least one byte.
  let limit = Math.min(total, from + maxBytes)
  if (limit < total && limit - 1 > from && isHighSurrogate(charCodeAt(record, limit - 1))) limit--
  const pieces: string[] = []
  let buffer: Buffer
  let offset = 0
  let to = from
  const worst = (limit - from) * MAX_BYTES_PER_UNIT
  if (worst <= Math.min(maxBytes, SHORT_SLICE_CHARS * MAX_BYTES_PER_UNIT)) {
    // A short slice (the end of a record): at once, in an exact buffer.
    lineText(record, from, limit, pieces)
    let bytes = 0
    for (const piece of pieces) bytes += Buffer.byteLength(piece)
    buffer = Buffer.allocUnsafe(bytes)
    for (const piece of pieces) offset += buffer.write(piece, offset)
    to = limit
  } else {
    const expected = Math.ceil(bytesPerMs * TURN_BUDGET_MS * SLICE_HEADROOM)
    buffer = buffers.take(Math.min(maxBytes, worst, powerOfTwoAtLeast(Math.max(MIN_SLICE_BYTES, expected))))
    while (to < limit) {
      // Whatever the next units escape to fits: the chunk never passes the buffer, nor maxBytes.
      const room = Math.floor((buffer.length - offset) / MAX_BYTES_PER_UNIT)
      if (room < 2) break
      let end = Math.min(limit, to + Math.min(PIECE_CHARS, room))
      if (end < limit && isHighSurrogate(charCodeAt(record, end - 1))) end--
      pieces.length = 0
      lineText(record, to, end, pieces)
      for (const piece of pieces) offset += buffer.write(piece, offset)
      to = end
      if (performance.now() >= deadline) break
    }
    // The rate of a slice that did not run out of record (a tail is mostly overhead).
    if (to < limit) bytesPerMs = offset / Math.max(performance.now() - started, 0.01)
  }
  return { buffer: buffer.subarray(0, offset), to, bytesPerMs }
}

/** The least power of two that is at least `n` (n ≥ 1). */
function powerOfTwoAtLeast(n: number): number {
  return 2 ** Math.ceil(Math.log2(n))
}
