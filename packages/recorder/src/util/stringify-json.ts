/**
 * JSON text for values read from untrusted transcripts, without recursion: `JSON.parse` accepts nesting
 * millions deep, and `JSON.stringify` overflows the stack on it (a record `verify` calls clean would crash
 * `show`). Also keeps `__proto__` keys (they are own data properties after `JSON.parse`, and so they are
 * here) and escapes the characters that are valid JSON but act on a terminal (C1 controls, bidi
 * overrides, line separators): the text stays exact JSON, it only never holds them raw.
 */

export interface StringifyOptions {
  /** Spaces per level for pretty output; 0 for compact. @default 0 */
  readonly indent?: number
  /** Indentation level the value starts at (for a value embedded in a larger, streamed document). @default 0 */
  readonly baseDepth?: number
  /**
   * Stop once the output is at least this long and end it with `…` (no longer JSON: for display only).
   * @default Infinity
   */
  readonly maxChars?: number
}

/**
 * Characters JSON.stringify leaves raw that a terminal may act on: DEL, C1 controls (U+0080–U+009F: U+009B
 * is a one-character CSI), the Arabic letter mark and bidi marks/overrides/isolates, and the line/paragraph
 * separators.
 */
export const TERMINAL_UNSAFE_IN_JSON =
  /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function escapeUnsafe(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** A JSON string literal, with terminal-unsafe characters escaped as `\uXXXX`. */
export function quoteJson(text: string): string {
  return JSON.stringify(text).replace(TERMINAL_UNSAFE_IN_JSON, escapeUnsafe)
}

/** Levels indented in pretty output; deeper levels are written compact. */
const MAX_PRETTY_DEPTH = 32

type Frame =
  | { readonly kind: 'array'; readonly value: readonly unknown[]; index: number; readonly depth: number }
  | {
      readonly kind: 'object'
      readonly value: Record<string, unknown>
      readonly keys: string[]
      index: number
      wrote: boolean
      readonly depth: number
    }

/**
 * `JSON.stringify(value)` (or with an indent), iteratively. Plain data only: no `toJSON`, no replacer;
 * `undefined`, functions and symbols are skipped in objects and become `null` in arrays, non-finite
 * numbers become `null`, bigints are written as numbers. A value met again on its own path is written as
 * `"[Circular]"` instead of throwing.
 */
export function stringifyJson(value: unknown, options: StringifyOptions = {}): string {
  const indent = options.indent ?? 0
  const baseDepth = options.baseDepth ?? 0
  const maxChars = options.maxChars ?? Infinity
  const parts: string[] = []
  let length = 0
  const push = (text: string): void => {
    parts.push(text)
    length += text.length
  }
  // Pretty output of deep nesting would be quadratic (each level indents every line below it): past
  // MAX_PRETTY_DEPTH levels the value continues compact, which is the same JSON.
  const newline = (depth: number): string =>
    indent === 0 || depth > MAX_PRETTY_DEPTH ? '' : `\n${' '.repeat(indent * depth)}`
  const colon = indent === 0 ? ':' : ': '
  const stack: Frame[] = []
  const onPath = new Set<object>()
  // Writes a scalar, or opens a container (pushing its frame); returns false when nothing was written.
  const open = (item: unknown, depth: number, inArray: boolean): boolean => {
    switch (typeof item) {
      case 'string':
        // For display, a huge string is cut before it is escaped, so the budget bounds the work too.
        push(quoteJson(item.length > maxChars ? item.slice(0, maxChars) : item))
        return true
      case 'number':
        push(Number.isFinite(item) ? String(item) : 'null')
        return true
      case 'bigint':
        push(String(item))
        return true
      case 'boolean':
        push(item ? 'true' : 'false')
        return true
      case 'object':
        break
      default:
        if (inArray) push('null')
        return inArray
    }
    if (item === null) {
      push('null')
      return true
    }
    if (onPath.has(item)) {
      push('"[Circular]"')
      return true
    }
    onPath.add(item)
    if (Array.isArray(item)) {
      push('[')
      stack.push({ kind: 'array', value: item, index: 0, depth })
    } else {
      push('{')
      const object = item as Record<string, unknown>
      stack.push({ kind: 'object', value: object, keys: Object.keys(object), index: 0, wrote: false, depth })
    }
    return true
  }
  open(value, baseDepth, true)
  while (stack.length > 0 && length < maxChars) {
    const frame = stack.at(-1)!
    if (frame.kind === 'array') {
      if (frame.index < frame.value.length) {
        if (frame.index > 0) push(',')
        push(newline(frame.depth + 1))
        open(frame.value[frame.index++], frame.depth + 1, true)
        continue
      }
      if (frame.value.length > 0) push(newline(frame.depth))
      push(']')
    } else {
      if (frame.index < frame.keys.length) {
        const key = frame.keys[frame.index++]!
        const item = frame.value[key]
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
        if (frame.wrote) push(',')
        frame.wrote = true
        push(`${newline(frame.depth + 1)}${quoteJson(key)}${colon}`)
        open(item, frame.depth + 1, false)
        continue
      }
      if (frame.wrote) push(newline(frame.depth))
      push('}')
    }
    stack.pop()
    onPath.delete(frame.value)
  }
  const text = parts.join('')
  return length >= maxChars && (stack.length > 0 || length > maxChars) ? `${text.slice(0, maxChars)}…` : text
}
