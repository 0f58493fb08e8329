import { randomFillSync } from 'node:crypto'

// Why not `crypto.randomUUID()`: on Node 20 it builds the string by concatenating sixteen two-digit
// pieces and dashes, and V8 keeps such a string as a tree of ~14 cons-string nodes until something flattens
// it. The queue holds every record's uuid until the record is written (the acknowledgement names the last
// one), so behind a big record thousands of these trees were alive at each scavenge, and every scavenge
// copied their nodes: in the `big` write-bench workload the scavenges' survivors fell from 5.5–5.8 to
// 2.7–3.0 MiB, their promoted bytes from 2.8 to 0.9 MiB and their pauses from 9–16 to ~5 ms with flat
// strings (docs/big-records.md, "Flat uuids and warm processes"). Here the text is written into a buffer
// and read out once: one flat string, and ~145 ns against randomUUID's ~190.

// Random bytes for this many uuids are drawn at a time (as Node's own randomUUID cache does).
const UUIDS_PER_DRAW = 128
const HEX_DIGITS = '0123456789abcdef'
// Where each of the 16 bytes' two hex digits go in `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

// Made on the first call, not at import (the recorder does nothing at import time).
let state: {
  // Random bytes for UUIDS_PER_DRAW uuids, the next unused one at `next`.
  readonly random: Buffer
  next: number
  // The uuid's text, its dashes in place; and each byte's two hex digits as one 16-bit number, the first
  // digit in its low byte.
  readonly text: Buffer
  readonly hexPairs: Uint16Array
} | null = null

function newState(): NonNullable<typeof state> {
  const hexPairs = new Uint16Array(256)
  for (let byte = 0; byte < 256; byte++)
    hexPairs[byte] = HEX_DIGITS.charCodeAt(byte >> 4) | (HEX_DIGITS.charCodeAt(byte & 15) << 8)
  // Not from Node's shared pool: another buffer's `.buffer` would show the next uuids' bytes.
  const random = Buffer.allocUnsafeSlow(UUIDS_PER_DRAW * 16)
  return { random, next: random.length, text: Buffer.alloc(36, '-'), hexPairs }
}

/** A random (version 4, RFC 9562) uuid from the crypto random source, in lower case, as one flat string. */
export function recordUuid(): string {
  const s = (state ??= newState())
  if (s.next === s.random.length) {
    randomFillSync(s.random)
    s.next = 0
  }
  const { random, text, hexPairs } = s
  const from = s.next
  s.next += 16
  random[from + 6] = (random[from + 6]! & 0x0f) | 0x40 // version 4
  random[from + 8] = (random[from + 8]! & 0x3f) | 0x80 // variant 10xx
  for (let i = 0; i < 16; i++) {
    const pair = hexPairs[random[from + i]!]!
    const at = DIGIT_AT[i]!
    text[at] = pair & 0xff
    text[at + 1] = pair >> 8
  }
  return text.toString('latin1', 0, 36)
}
