/**
 * A string held by reference: the caller's string, written later as a JSON string literal (quotes
 * included), escaped a piece at a time when the writer gets to it. Strings are immutable, so holding one is
 * still a snapshot.
 */
export interface Held {
  readonly raw: string
}

/**
 * JSON text in which the held strings are not escaped yet: flat text parts and {@link Held} strings.
 * `chars` is what the parts stand for in the queue (text as is, a held string as `raw.length + 2`, its
 * quotes): a lower bound of the escaped length. `heldChars` is the held strings' share of it (their raw
 * code units): the caller's memory, bounded apart from the recorder's own (see `maxHeldChars`).
 */
export interface HeldText {
  readonly parts: readonly (string | Held)[]
  readonly chars: number
  readonly heldChars: number
  /**
   * UTF-8 bytes of the text parts, counted as the parts were made (the walk does, a part at a time): then
   * measuring the record against `maxRecordBytes` does not have to count them all in one task.
   */
  readonly textBytes: number
}

/**
 * Code units escaped (or sliced) and encoded at a time: the unit of work between two looks at the clock,
 * and the most any temporary string is made of (escaping a 100 MB string at once would need a second copy
 * of up to 600 MB). Escaping 64 Ki code units takes 0.1–0.2 ms on the 2-core reference VM.
 */
export const PIECE_CHARS = 64 * 1024
const QUOTE = 0x22

/**
 * The JSON text of the code units [from, to) of `text` (see {@link HeldText.chars}), appended to `out` as
 * flat strings: text parts are sliced, held strings are escaped now. Escaping a slice gives the same text as
 * escaping the whole string as long as no slice ends between the two halves of a surrogate pair: callers
 * never end a range after a high surrogate ({@link unitAt} tells).
 */
export function textOf(text: HeldText, from: number, to: number, out: string[]): void {
  let start = 0
  for (const part of text.parts) {
    const size = sizeOf(part)
    const end = start + size
    if (end > from && start < to) {
      const a = Math.max(from, start) - start
      const b = Math.min(to, end) - start
      if (typeof part === 'string') out.push(a === 0 && b === size ? part : part.slice(a, b))
      else escapeRange(part.raw, a, b, out)
    }
    if (end >= to) return
    start = end
  }
}

/** The code unit at `index` of the text as `chars` counts it (a held string's raw unit, not its escape). */
export function unitAt(text: HeldText, index: number): number {
  let start = 0
  for (const part of text.parts) {
    const size = sizeOf(part)
    if (index < start + size) {
      const at = index - start
      if (typeof part === 'string') return part.charCodeAt(at)
      return at === 0 || at === size - 1 ? QUOTE : part.raw.charCodeAt(at - 1)
    }
    start += size
  }
  return -1
}

/** The whole text (the rare paths that need it as one string). */
export function wholeText(text: HeldText): string {
  const out: string[] = []
  textOf(text, 0, text.chars, out)
  return out.join('')
}

/**
 * UTF-8 bytes of the escaped text, counted a piece at a time. Stops once the count exceeds `limit` and
 * returns that partial count, so measuring a record against a limit costs O(limit), whatever its size.
 */
export function utf8BytesOf(text: HeldText, limit = Infinity): number {
  let bytes = 0
  for (const part of text.parts) {
    if (typeof part === 'string') bytes += Buffer.byteLength(part)
    else {
      bytes += 2
      const { raw } = part
      for (let i = 0; i < raw.length && bytes <= limit;) {
        const end = pieceEnd(raw, i, PIECE_CHARS)
        bytes += Buffer.byteLength(escapePiece(raw.slice(i, end)))
        i = end
      }
    }
    if (bytes > limit) return bytes
  }
  return bytes
}

/**
 * Bounds of {@link utf8BytesOf} without escaping anything: a code unit becomes 1 to 6 bytes (`\u001f`, a
 * lone surrogate's `\udc00`), the text parts are measured exactly.
 */
export function utf8BytesBounds(text: HeldText): { readonly low: number; readonly high: number } {
  let quotes = 0
  for (const part of text.parts) if (typeof part !== 'string') quotes += 2
  const exact = text.textBytes + quotes
  return { low: exact + text.heldChars, high: exact + text.heldChars * 6 }
}

function sizeOf(part: string | Held): number {
  return typeof part === 'string' ? part.length : part.raw.length + 2
}

/** Appends the escaped text of local units [a, b) of a held string (0 and raw.length + 1 are its quotes). */
function escapeRange(raw: string, a: number, b: number, out: string[]): void {
  if (a === 0) out.push('"')
  const from = Math.max(a, 1) - 1
  const to = Math.min(b, raw.length + 1) - 1
  for (let i = from; i < to;) {
    const end = pieceEnd(raw, i, Math.min(PIECE_CHARS, to - i))
    out.push(escapePiece(raw.slice(i, end)))
    i = end
  }
  if (b === raw.length + 2) out.push('"')
}

// The control characters JSON.stringify escapes. The test is anchored and negated — "every unit is not a
// control" — because V8 runs that as one tight loop over the string, where an unanchored class tries a
// match at every position: the old test's whole class anchored took 1.9 against 2.8 ms for 2.5 MB of
// base64, and `needsEscape` as a whole takes 1.2 (bench/escape-test.ts).
// eslint-disable-next-line no-control-regex -- the control characters are exactly what must be found
const NO_CONTROL = /^[^\u0000-\u001f]*$/

/**
 * Whether JSON.stringify would change anything inside `piece`: a `"` or `\` (found by `indexOf`, a memchr
 * over a one-byte string), a control character, or a lone surrogate (`isWellFormed`, which answers at once
 * for a one-byte string; a surrogate pair is left as it is, so it needs nothing).
 */
export function needsEscape(piece: string): boolean {
  return (
    piece.indexOf('"') >= 0 || piece.indexOf('\\') >= 0 || !NO_CONTROL.test(piece) || !piece.isWellFormed()
  )
}

/**
 * A piece of a held string as it reads inside a JSON string literal. Most long strings (base64, ASCII
 * text) need no escape at all: then the piece is returned as is — a slice, which V8 makes without copying
 * — instead of a new string of the same size, which would be garbage for the young generation: 100 MB of it
 * in the write bench's `big` workload. Testing costs less than escaping: 1.2 against 2.4 ms (escape) for that
 * workload's 2.5 MB of base64, measured alone (bench/escape-test.ts).
 */
function escapePiece(piece: string): string {
  return needsEscape(piece) ? JSON.stringify(piece).slice(1, -1) : piece
}

/** `from + count`, moved back by one when that would split a surrogate pair. */
export function pieceEnd(raw: string, from: number, count: number): number {
  const end = Math.min(raw.length, from + count)
  if (end < raw.length && end - 1 > from && isHighSurrogate(raw.charCodeAt(end - 1))) return end - 1
  return end
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
