// Why records are packed: while the writer is behind (a big record written in slices ahead of them), the
// records queued behind it stay alive across garbage collections, and every scavenge copies what is alive
// in the young generation. In the write bench's `big` workload that backlog doubled what scavenges copied
// and promoted (bench/big-turns.ts, --trace-gc-nvp: 23 MiB survived and 17 MiB promoted, against 19 and 7
// for the caller's bare JSON.stringify). A pack's bytes are outside V8's heap: nothing for a scavenge to
// copy. Encoding them is the work their write would do anyway, done earlier. Chat has the same backlog on
// a smaller scale: each write waits for the read that checks the file before it, so the records of two or
// more bursts wait per write; packed, a chat run's scavenges copy 9.0 MiB instead of 14.7 (docs/benchmarks.md).
import { lineBytes, lineChars, type QueuedRecord } from '../serialize/serialize-record.js'
import { NEWLINE } from '../../format/record-format.js'

/**
 * A run of ordinary queued records already encoded (see `RecordQueue.packAhead`): it takes the place of the
 * run's first record in the queue; the others' places hold {@link PACKED}. It reads as a record with no text
 * so the queue's other readers (`handedOver`, the walk) pass it by.
 */
export class Packed implements QueuedRecord {
  readonly head = ''
  readonly body = ''
  readonly handedOver = null
  readonly bytes: Buffer
  /** Records in the run. */
  readonly records: number
  /** Code units they stood for in the queue (their own text: an ordinary record holds no string). */
  readonly chars: number

  constructor(bytes: Buffer, records: number, chars: number) {
    this.bytes = bytes
    this.records = records
    this.chars = chars
  }
}

/** The places of a packed run's records after its first. */
export const PACKED: QueuedRecord = { head: '', body: '', handedOver: null }

/**
 * The most bytes in one pack, and the size of the scratch buffer a run is encoded into: a write carries
 * one or more packs whole (never more than `maxWriteBytes`, which bounds it too). 1 MiB: a few hundred
 * ~1 KB records per pack, so the queue holds a few objects per burst instead of a few per record.
 */
export const PACK_BYTES = 1024 * 1024

/** An ordinary record small enough to go into a pack of `size` bytes whole (UTF-8: ≤ 3 bytes a unit). */
export function packable(record: QueuedRecord, size: number): boolean {
  return (
    typeof record.body === 'string' &&
    record.handedOver === null &&
    !(record instanceof Packed) &&
    record !== PACKED &&
    lineChars(record) * 3 <= size
  )
}

/**
 * Encodes the run of records from `from` that `fits` accepts into `buffer` at `offset`, as far as it has
 * room; returns the index after the run, the offset after its bytes and the code units it stood for. The
 * caller puts the run's {@link Packed} in place (see `RecordQueue.packAhead`).
 */
export function encodeRun(
  records: readonly QueuedRecord[],
  from: number,
  buffer: Buffer,
  offset: number,
  fits: (record: QueuedRecord) => boolean,
): { readonly end: number; readonly offset: number; readonly chars: number } {
  let chars = 0
  let end = from
  for (; end < records.length; end++) {
    const record = records[end]!
    if (!fits(record)) break
    const recordChars = lineChars(record)
    // UTF-8 takes at most 3 bytes per code unit: the record fits in what is left.
    if (recordChars * 3 > buffer.length - offset) break
    offset = encodeLine(record, buffer, offset)
    chars += recordChars
  }
  return { end, offset, chars }
}

/** Encodes an ordinary record's line (its body is flat text) into `buffer` at `offset`; returns the offset after it. */
export function encodeLine(record: QueuedRecord, buffer: Buffer, offset: number): number {
  offset += buffer.write(record.head, offset)
  if ((record.body as string).length > 0) offset += buffer.write(record.body as string, offset)
  buffer[offset++] = NEWLINE
  return offset
}

/** Puts the run [from, from + records) in place as one {@link Packed} of `bytes`. */
export function placeRun(
  records: QueuedRecord[],
  from: number,
  bytes: Buffer,
  count: number,
  chars: number,
): Packed {
  const pack = new Packed(bytes, count, chars)
  records[from] = pack
  for (let k = from + 1; k < from + count; k++) records[k] = PACKED
  return pack
}

// A batch's entries (record-queue.ts): an ordinary record, or a packed run standing for several.

/** Records the entry stands for. */
export function spanOf(entry: QueuedRecord): number {
  return entry instanceof Packed ? entry.records : 1
}

/** Code units the entry stands for in the queue. */
export function queuedCharsOf(entry: QueuedRecord): number {
  return entry instanceof Packed ? entry.chars : lineChars(entry)
}

/** Most UTF-8 bytes of the entry's lines (exact for a packed run). */
export function boundOf(entry: QueuedRecord): number {
  return entry instanceof Packed ? entry.bytes.length : lineChars(entry) * 3
}

/** UTF-8 bytes of the entry's lines (an ordinary record's body is flat text). */
export function bytesOf(entry: QueuedRecord): number {
  return entry instanceof Packed ? entry.bytes.length : lineBytes(entry)
}
