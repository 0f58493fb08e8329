/** Characters of context shown before a match; the snippet is at most {@link SNIPPET_CHARS} long. */
const BEFORE = 60
export const SNIPPET_CHARS = 160

/**
 * The text around `index` (where a match of `length` chars starts), on one line: runs of white space
 * (newlines included) become one space, cut ends are marked with `…`. Raw text: the CLI escapes it for a
 * terminal, and JSON output escapes what a terminal would act on.
 */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - BEFORE)
  const end = Math.min(text.length, Math.max(index + length, start + SNIPPET_CHARS))
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim()
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`
}
