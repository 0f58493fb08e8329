/**
 * A catalog shard's filter table (the format is in cache-store.ts): bucket c's run of r bits, then a u32 LE
 * check of that run, of c and of the index's checksum. This file's one job is that layout and its checks:
 * where a run is, what its check is, writing the checks and verifying a whole table. A damaged run must
 * never rule a file out, so a run that does not check is never used.
 */
import { columnBytes, FILTER_COLUMNS } from '../search/trigram-filter.js'

/** Bytes from one bucket's run to the next: the run, then its check (no table at all without rows). */
export function pitchOf(rows: number): number {
  return rows === 0 ? 0 : columnBytes(rows) + 4
}

/** The check of bucket `column`'s run (`length` bytes of `bytes` from `at`): FNV-1a seeded by the JSON's checksum. */
export function runCheck(
  seed: number,
  column: number,
  bytes: Uint8Array,
  at: number,
  length: number,
): number {
  let hash = Math.imul(0x811c9dc5 ^ seed, 0x01000193) ^ column
  for (let i = at; i < at + length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0
}

/** Whether every run of a whole table checks. */
export function tableChecks(table: Uint8Array, rows: number, seed: number): boolean {
  if (rows === 0) return true
  const stride = columnBytes(rows)
  const pitch = pitchOf(rows)
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength)
  for (let column = 0; column < FILTER_COLUMNS; column++) {
    const at = column * pitch
    if (view.getUint32(at + stride, true) !== runCheck(seed, column, table, at, stride)) return false
  }
  return true
}

/** Writes each bucket's check after its run in a table `transpose` built with {@link pitchOf}'s pitch. */
export function writeRunChecks(table: Uint8Array, rows: number, seed: number): void {
  const pitch = pitchOf(rows)
  const stride = columnBytes(rows)
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength)
  for (let column = 0; rows > 0 && column < FILTER_COLUMNS; column++) {
    const at = column * pitch
    view.setUint32(at + stride, runCheck(seed, column, table, at, stride), true)
  }
}
