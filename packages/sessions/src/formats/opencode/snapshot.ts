import { open, type FileHandle } from 'node:fs/promises'
import { OpenCodeDbError } from './errors.js'
import { applyWal, walHeaderOf, WalFormatError, WalTooLargeError } from './wal.js'

/**
 * A consistent snapshot of a SQLite database in WAL mode, taken without SQLite's locks and without creating
 * anything beside it (no `-shm`, no journal: both files are only opened read-only).
 *
 * Why it is consistent without the locks: SQLite only ever appends to a WAL generation, and a checkpoint
 * copies into the database file only pages whose frames are committed in the log. Reading the WAL header,
 * then the database, then the whole WAL, and finding the header unchanged proves no reset started a new
 * generation in between; every page a concurrent checkpoint wrote (even half-written, as we read it) is in
 * the WAL we hold, and applying every committed frame over it gives the database as of the last commit.
 * A header that changed means the writer reset the log: the attempt is thrown away and made again.
 * A database not in WAL mode has no such log: there, the file must be unchanged (size and mtime) across
 * the read.
 */

/** Attempts before a writer that keeps resetting the log is reported as `ERR_OPENCODE_DB_BUSY`. */
const ATTEMPTS = 5
const SQLITE_MAGIC = 'SQLite format 3\0'
const HEADER_BYTES = 100
/** Offsets in the database header: page size (u16, 1 = 65536), write and read format (2 = WAL). */
const PAGE_SIZE_AT = 16
const WRITE_VERSION_AT = 18
const READ_VERSION_AT = 19

/** A database as of its last commit, ready to open in memory. */
export interface DbSnapshot {
  /** The page image, marked as a rollback-journal database so an in-memory SQLite never looks for a WAL. */
  readonly image: Uint8Array
  /** Committed WAL frames applied, and frames of a transaction still being written that were left out. */
  readonly framesApplied: number
  readonly framesNotCommitted: number
}

/** Whether `bytes` open with SQLite's header string. */
export function isSqliteHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 16 && Buffer.from(bytes.subarray(0, 16)).toString('latin1') === SQLITE_MAGIC
}

/** Reads the snapshot; rejects with `OpenCodeDbError` (or the fs error of the database file itself). */
export async function readDbSnapshot(file: string, maxBytes: number): Promise<DbSnapshot> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const taken = await attemptSnapshot(file, maxBytes)
    if (taken !== undefined) return taken
  }
  throw new OpenCodeDbError(
    'ERR_OPENCODE_DB_BUSY',
    file,
    `${file}: its WAL was reset by a writer during each of ${ATTEMPTS} reads; try again`,
  )
}

async function attemptSnapshot(file: string, maxBytes: number): Promise<DbSnapshot | undefined> {
  const walFile = `${file}-wal`
  const before = await readWal(walFile, file, { headerOnly: true })
  const dbHandle = await open(file, 'r')
  let db: Uint8Array
  let dbChanged: boolean
  try {
    const stat = await dbHandle.stat({ bigint: true })
    if (stat.size > BigInt(maxBytes)) throw tooLarge(file, Number(stat.size), maxBytes)
    db = await readAll(dbHandle, Number(stat.size))
    const after = await dbHandle.stat({ bigint: true })
    dbChanged = after.size !== stat.size || after.mtimeNs !== stat.mtimeNs
  } finally {
    await dbHandle.close()
  }
  if (db.length > 0 && !isSqliteHeader(db)) {
    throw new OpenCodeDbError('ERR_NOT_SQLITE', file, `${file} is not a SQLite database`)
  }
  const wal = await readWal(walFile, file, { limit: Math.max(0, maxBytes - db.length) })
  if (!sameHeader(before, wal)) return undefined
  const walMode = db.length >= HEADER_BYTES && db[WRITE_VERSION_AT] === 2
  if (!walMode && dbChanged) return undefined
  const pageSize = pageSizeOf(db, wal, file)
  let applied
  try {
    applied = applyWal(db, wal ?? new Uint8Array(0), pageSize, maxBytes)
  } catch (error) {
    if (error instanceof WalTooLargeError) throw tooLarge(file, error.bytes, maxBytes)
    if (error instanceof WalFormatError)
      throw new OpenCodeDbError('ERR_OPENCODE_DB_CORRUPT', file, `${file}: ${error.message}`, {
        cause: error,
      })
    throw error
  }
  const { image } = applied
  if (image.length < HEADER_BYTES || !isSqliteHeader(image)) {
    throw new OpenCodeDbError('ERR_OPENCODE_DB_CORRUPT', file, `${file} holds no committed database page`)
  }
  image[WRITE_VERSION_AT] = 1
  image[READ_VERSION_AT] = 1
  return { image, framesApplied: applied.framesApplied, framesNotCommitted: applied.framesNotCommitted }
}

/** The page size the header states (a power of two from 512 to 65536), or the WAL's for an empty file. */
function pageSizeOf(db: Uint8Array, wal: Uint8Array | undefined, file: string): number {
  let size: number
  if (db.length >= HEADER_BYTES) {
    const raw = (db[PAGE_SIZE_AT]! << 8) | db[PAGE_SIZE_AT + 1]!
    size = raw === 1 ? 65536 : raw
  } else if (wal !== undefined && wal.length >= 32) {
    size = new DataView(wal.buffer, wal.byteOffset, wal.byteLength).getUint32(8)
  } else {
    throw new OpenCodeDbError('ERR_OPENCODE_DB_CORRUPT', file, `${file} is too short for a SQLite header`)
  }
  if (size < 512 || size > 65536 || (size & (size - 1)) !== 0) {
    throw new OpenCodeDbError('ERR_OPENCODE_DB_CORRUPT', file, `${file}: page size ${size} is not valid`)
  }
  return size
}

/**
 * The WAL's header (`headerOnly`) or its bytes (at most `limit`, else refused as too large), or undefined
 * when there is none.
 */
async function readWal(
  walFile: string,
  file: string,
  read: { readonly headerOnly: true } | { readonly limit: number },
): Promise<Uint8Array | undefined> {
  let handle: FileHandle
  try {
    handle = await open(walFile, 'r')
  } catch (error) {
    // No log (never opened in WAL mode, or the last connection closed and deleted it): the file is all.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const { size } = await handle.stat()
    if ('headerOnly' in read) return await readAll(handle, Math.min(size, 32))
    if (size > read.limit) throw tooLarge(file, size, read.limit)
    return await readAll(handle, size)
  } finally {
    await handle.close()
  }
}

function sameHeader(before: Uint8Array | undefined, wal: Uint8Array | undefined): boolean {
  const a = before === undefined ? undefined : walHeaderOf(before)
  const b = wal === undefined ? undefined : walHeaderOf(wal)
  if (a === undefined || b === undefined) return a === b
  return Buffer.from(a).equals(Buffer.from(b))
}

/** Reads up to `size` bytes from the start; a file that shrank meanwhile gives what it still has. */
async function readAll(handle: FileHandle, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size)
  let got = 0
  while (got < size) {
    const { bytesRead } = await handle.read(out, got, size - got, got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return got === size ? out : out.subarray(0, got)
}

function tooLarge(file: string, bytes: number, maxBytes: number): OpenCodeDbError {
  return new OpenCodeDbError(
    'ERR_OPENCODE_DB_TOO_LARGE',
    file,
    `${file}: ${bytes} bytes to read, over the bound of ${maxBytes} (option maxBytes)`,
  )
}
