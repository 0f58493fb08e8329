/**
 * Reading a catalog shard file (the format is in cache-store.ts) through one open file: its start on demand
 * (one read for most shards, more only for a bigger one) and single filter runs for a query. This file's one
 * job is the bounded reads; what the bytes mean is cache-store.ts's. Every read is bounded by the file's
 * size and {@link MAX_SHARD_BYTES}, whatever a header says.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { columnBytes } from '../search/trigram-filter.js'
import { isOwnFile } from './private-dir.js'
import { pitchOf, runCheck } from './shard-table.js'

/**
 * The first read of a shard (listing or searching): its index and digests are ~1.3 KiB per session (3,000
 * sessions in 32 shards: ~100 KiB each); a bigger one takes one more read. A shard about to be rewritten is
 * read whole.
 */
const LIST_FIRST_READ_BYTES = 128 * 1024
/**
 * No shard we write is bigger (8,192 entries' JSON at well under 8 KiB each, a 4,096-row table of ~34 MB):
 * a bigger file is not ours or is damaged, and is treated as empty without being read (every read is bounded
 * by this, whatever a header says). A shard that would be bigger is not saved (its files are read again).
 */
export const MAX_SHARD_BYTES = 96 * 1024 * 1024

/**
 * How a shard is opened: never through a link (O_NOFOLLOW), and without waiting on a FIFO put at its name
 * (O_NONBLOCK: its open returns, and the check of what was opened refuses it).
 */
export const SHARD_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/** What a shard read needs of an open file: `fs.promises`' FileHandle, or {@link blockingHandle}. */
export interface ShardHandle {
  stat(): Promise<{ readonly size: number; readonly uid: number; readonly mode: number; isFile(): boolean }>
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  close(): Promise<void>
}

/**
 * A shard opened for synchronous reads: the same calls as a FileHandle, each made at once. A search reads
 * a dozen small ranges of each of 32 shards; through the thread pool, that was ~450 round trips.
 */
export function blockingHandle(file: string): ShardHandle {
  const fd = openSync(file, SHARD_READ_FLAGS)
  // Promise.resolve rather than async functions: each call is made at once, on this thread.
  return {
    stat: () => Promise.resolve(fstatSync(fd)),
    read: (buffer, offset, length, position) =>
      Promise.resolve({ bytesRead: readSync(fd, buffer, offset, length, position) }),
    close: () => Promise.resolve(closeSync(fd)),
  }
}

/** The start of a shard file, read on demand: one read for most shards, more only for a bigger one. */
export class ShardReader {
  readonly #handle: ShardHandle
  readonly #size: number
  readonly #firstRead: number
  /** The bytes read so far, from offset 0. */
  #bytes: Buffer = Buffer.alloc(0)

  private constructor(handle: ShardHandle, size: number, firstRead: number) {
    this.#handle = handle
    this.#size = size
    this.#firstRead = firstRead
  }

  /**
   * `whole`: the whole shard is read at once; else its first bytes (most shards' JSON part). Undefined for
   * a file that is not a regular file this user wrote and alone may write (private-dir.ts): its content is
   * never read, whatever its checksums say.
   */
  static async open(handle: ShardHandle, whole: boolean): Promise<ShardReader | undefined> {
    const info = await handle.stat()
    const { size } = info
    if (!isOwnFile(info) || size > MAX_SHARD_BYTES) return undefined
    return new ShardReader(handle, size, whole ? size : Math.min(size, LIST_FIRST_READ_BYTES))
  }

  get bytes(): Buffer {
    return this.#bytes
  }

  get size(): number {
    return this.#size
  }

  /**
   * Which of the table's `rows` rows have every bucket in `columns` (a bit per row): the AND of those
   * buckets' runs, each read on its own (a few dozen bytes) from the same open file.
   */
  async matchingRows(
    tableAt: number,
    rows: number,
    seed: number,
    columns: readonly number[],
  ): Promise<Uint8Array | undefined> {
    const stride = columnBytes(rows)
    const pitch = pitchOf(rows)
    const matching = new Uint8Array(stride).fill(0xff)
    if (rows === 0) return matching
    const runs = await Promise.all(
      columns.map(async (column) => {
        const run = Buffer.allocUnsafe(pitch)
        const { bytesRead } = await this.#handle.read(run, 0, pitch, tableAt + column * pitch)
        return bytesRead === pitch && run.readUInt32LE(stride) === runCheck(seed, column, run, 0, stride)
          ? run
          : undefined
      }),
    )
    for (const run of runs) {
      // Short (changed under us) or damaged: no answer from this table, never a wrong one.
      if (run === undefined) return undefined
      for (let i = 0; i < stride; i++) matching[i] = matching[i]! & run[i]!
    }
    return matching
  }

  /** Whether the file has at least `length` bytes (reading them if not read yet). */
  async has(length: number): Promise<boolean> {
    if (length <= this.#bytes.length) return true
    // A length past the end is damage: never allocate what a corrupt header asks for.
    if (length > this.#size) return false
    const wanted = Math.max(length, this.#firstRead)
    const buffer = Buffer.allocUnsafe(wanted)
    this.#bytes.copy(buffer)
    let got = this.#bytes.length
    while (got < wanted) {
      const { bytesRead } = await this.#handle.read(buffer, got, wanted - got, got)
      // Shorter than its size said: changed under us (replaced by a rename keeps this one whole).
      if (bytesRead === 0) return false
      got += bytesRead
    }
    this.#bytes = buffer
    return true
  }
}
