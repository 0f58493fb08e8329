import type { LazyJson, LazyPart } from './lazy-json.js'

const QUOTE = 0x22
// Escaping is done and measured this many code units at a time, so no temporary string is ever the size of
// a whole big string (a 100 MB string escaped at once would need a second copy of up to 600 MB).
const ESCAPE_SLICE_CHARS = 256 * 1024

/**
 * The JSON text of the code units [from, to) of `lazy` (see {@link LazyJson.chars}), appended to `out` as
 * flat strings: text parts are sliced, big strings are escaped now, slice by slice. Escaping a slice gives
 * the same text as escaping the whole string as long as no slice ends between the two halves of a
 * surrogate pair: callers never end a range after a high surrogate ({@link unitAt} tells).
 */
export function textOf(lazy: LazyJson, from: number, to: number, out: string[]): void {
  let start = 0
  for (const part of lazy.parts) {
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

/** The code unit at `index` of the text as `chars` counts it (a big string's raw unit, not its escape). */
export function unitAt(lazy: LazyJson, index: number): number {
  let start = 0
  for (const part of lazy.parts) {
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
export function wholeText(lazy: LazyJson): string {
  const out: string[] = []
  textOf(lazy, 0, lazy.chars, out)
  return out.join('')
}

/**
 * UTF-8 bytes of the escaped text, counted slice by slice. Stops once the count exceeds `limit` and returns
 * that partial count, so measuring a record against a limit costs O(limit), whatever its size.
 */
export function utf8BytesOf(lazy: LazyJson, limit = Infinity): number {
  let bytes = 0
  for (const part of lazy.parts) {
    if (typeof part === 'string') bytes += Buffer.byteLength(part)
    else {
      bytes += 2
      const { raw } = part
      for (let i = 0; i < raw.length && bytes <= limit;) {
        const end = sliceEnd(raw, i, ESCAPE_SLICE_CHARS)
        bytes += Buffer.byteLength(JSON.stringify(raw.slice(i, end))) - 2
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
export function utf8BytesBounds(lazy: LazyJson): { readonly low: number; readonly high: number } {
  const counted = lazy.textBytes
  let exact = counted ?? 0
  let raw = 0
  for (const part of lazy.parts) {
    if (typeof part === 'string') {
      if (counted === undefined) exact += Buffer.byteLength(part)
    } else {
      exact += 2
      raw += part.raw.length
    }
  }
  return { low: exact + raw, high: exact + raw * 6 }
}

function sizeOf(part: LazyPart): number {
  return typeof part === 'string' ? part.length : part.raw.length + 2
}

/** Appends the escaped text of local units [a, b) of a big string (0 and raw.length + 1 are its quotes). */
function escapeRange(raw: string, a: number, b: number, out: string[]): void {
  if (a === 0) out.push('"')
  const from = Math.max(a, 1) - 1
  const to = Math.min(b, raw.length + 1) - 1
  for (let i = from; i < to;) {
    const end = sliceEnd(raw, i, Math.min(ESCAPE_SLICE_CHARS, to - i))
    const quoted = JSON.stringify(raw.slice(i, end))
    out.push(quoted.slice(1, -1))
    i = end
  }
  if (b === raw.length + 2) out.push('"')
}

/** `from + count`, moved back by one when that would split a surrogate pair. */
function sliceEnd(raw: string, from: number, count: number): number {
  const end = Math.min(raw.length, from + count)
  if (end < raw.length && end - 1 > from && isHighSurrogate(raw.charCodeAt(end - 1))) return end - 1
  return end
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
