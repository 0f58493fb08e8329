/**
 * SQLite's write-ahead log, applied in memory (https://sqlite.org/fileformat2.html#walformat).
 *
 * A `-wal` file is a 32-byte header then frames. Header (big-endian u32s): magic 0x377f0682 or 0x377f0683
 * (the low bit says the checksums read the data as big-endian words), format version 3007000, page size,
 * checkpoint sequence, salt-1, salt-2, checksum-1, checksum-2 (over the first 24 bytes). Each frame is a
 * 24-byte header — page number, the database size in pages after a commit (0 on a frame that does not end a
 * transaction), salt-1, salt-2, checksum-1, checksum-2 — then one page. A frame's checksum continues the
 * previous one (the header's for the first) over its first 8 header bytes and its page.
 *
 * A frame is valid while its salts equal the header's and its checksum matches; the log ends at the first
 * frame that is not (a torn append, or frames of an older generation left behind after a reset). Only
 * frames up to the last valid commit frame are applied: what comes after is a transaction still being
 * written, which no reader may see. This is exactly what SQLite's own recovery does, without the `-shm`
 * index a live reader would use (we never create one).
 */

const WAL_HEADER_BYTES = 32
const FRAME_HEADER_BYTES = 24
const MAGIC_LITTLE_ENDIAN_SUMS = 0x377f0682
const MAGIC_BIG_ENDIAN_SUMS = 0x377f0683

/** What applying a log did. */
export interface WalApplied {
  /** The database as of the log's last commit (or the file unchanged when the log commits nothing). */
  readonly image: Uint8Array
  /** Frames up to and including the last valid commit frame. */
  readonly framesApplied: number
  /** Valid frames after the last commit (a transaction in progress) and bytes past the last valid frame. */
  readonly framesNotCommitted: number
}

/** Thrown for a log whose header is well-formed but does not fit the database (wrong page size). */
export class WalFormatError extends Error {
  override readonly name: string = 'WalFormatError'
}

/** The last commit's database is larger than the caller allows. */
export class WalTooLargeError extends RangeError {
  override readonly name: string = 'WalTooLargeError'
  readonly bytes: number

  constructor(bytes: number) {
    super(`the database after the WAL's last commit would be ${bytes} bytes`)
    this.bytes = bytes
  }
}

/** The 32-byte WAL header that identifies a log generation (salts and checkpoint sequence included). */
export function walHeaderOf(wal: Uint8Array): Uint8Array | undefined {
  return wal.length < WAL_HEADER_BYTES ? undefined : wal.subarray(0, WAL_HEADER_BYTES)
}

/**
 * Applies the committed frames of `wal` onto `db` (pages of `pageSize` bytes). Returns `db` itself when the
 * log has no valid header or commits nothing; otherwise a new image sized by the last commit, refused with
 * `WalTooLargeError` past `maxImageBytes`.
 */
export function applyWal(
  db: Uint8Array,
  wal: Uint8Array,
  pageSize: number,
  maxImageBytes: number,
): WalApplied {
  const none = { image: db, framesApplied: 0, framesNotCommitted: 0 }
  if (wal.length < WAL_HEADER_BYTES) return none
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength)
  const magic = view.getUint32(0)
  if (magic !== MAGIC_LITTLE_ENDIAN_SUMS && magic !== MAGIC_BIG_ENDIAN_SUMS) return none
  const bigEndian = magic === MAGIC_BIG_ENDIAN_SUMS
  const walPageSize = view.getUint32(8)
  const salt1 = view.getUint32(16)
  const salt2 = view.getUint32(20)
  let sums = checksum(view, 0, 24, bigEndian, 0, 0)
  if (sums[0] !== view.getUint32(24) || sums[1] !== view.getUint32(28)) return none
  if (walPageSize !== pageSize) {
    throw new WalFormatError(`the WAL's page size ${walPageSize} differs from the database's ${pageSize}`)
  }
  const frameBytes = FRAME_HEADER_BYTES + pageSize
  // The newest committed offset of each page's frame; a later frame for a page replaces an earlier one.
  let pending = new Map<number, number>()
  const committed = new Map<number, number>()
  let commitPages = 0
  let framesApplied = 0
  let validFrames = 0
  for (let at = WAL_HEADER_BYTES; at + frameBytes <= wal.length; at += frameBytes) {
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break
    sums = checksum(view, at, 8, bigEndian, sums[0], sums[1])
    sums = checksum(view, at + FRAME_HEADER_BYTES, pageSize, bigEndian, sums[0], sums[1])
    if (sums[0] !== view.getUint32(at + 16) || sums[1] !== view.getUint32(at + 20)) break
    const page = view.getUint32(at)
    if (page === 0) break
    validFrames++
    pending.set(page, at + FRAME_HEADER_BYTES)
    const dbPages = view.getUint32(at + 4)
    if (dbPages !== 0) {
      for (const [p, offset] of pending) committed.set(p, offset)
      pending = new Map()
      commitPages = dbPages
      framesApplied = validFrames
    }
  }
  const framesNotCommitted = Math.floor((wal.length - WAL_HEADER_BYTES) / frameBytes) - framesApplied
  if (framesApplied === 0) return { image: db, framesApplied, framesNotCommitted }
  // A commit frame names the database's size: refuse before allocating what a damaged one may claim.
  if (commitPages * pageSize > maxImageBytes) throw new WalTooLargeError(commitPages * pageSize)
  const image = new Uint8Array(commitPages * pageSize)
  image.set(db.subarray(0, Math.min(db.length, image.length)))
  for (const [page, offset] of committed) {
    if (page <= commitPages) image.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize)
  }
  return { image, framesApplied, framesNotCommitted }
}

/** SQLite's WAL checksum over `bytes` bytes (a multiple of 8) at `at`, continuing from `s0`, `s1`. */
function checksum(
  view: DataView,
  at: number,
  bytes: number,
  bigEndian: boolean,
  s0: number,
  s1: number,
): [number, number] {
  const littleEndian = !bigEndian
  for (let i = at; i < at + bytes; i += 8) {
    s0 = (s0 + view.getUint32(i, littleEndian) + s1) >>> 0
    s1 = (s1 + view.getUint32(i + 4, littleEndian) + s0) >>> 0
  }
  return [s0, s1]
}
