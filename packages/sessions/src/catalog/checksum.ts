import { createHash } from 'node:crypto'

/**
 * A 32-bit checksum of `bytes`: the first four bytes of their SHA-1. It only has to tell a damaged cache
 * from a good one (a shard's JSON, a transcript's first bytes), not resist an attacker. node:crypto rather
 * than zlib's crc32: loading node:zlib cost a warm `search` more (~10–30 ms) than hashing its ~3 MB of JSON.
 */
export function checksum(bytes: Uint8Array): number {
  return createHash('sha1').update(bytes).digest().readUInt32LE(0)
}
