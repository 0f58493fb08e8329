/**
 * Transcript text is hostile input. These make it inert for the two places it goes: a Markdown document (which
 * a viewer may turn into HTML) and an HTML page. Terminal control characters are shown, never passed on:
 * an ESC sequence in a tool's output must not recolour or retitle the terminal of whoever `cat`s the export.
 */

/** C0 controls except tab and newline, DEL, C1 controls, and the bidi overrides that can disguise text. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** Control characters replaced by a visible stand-in: C0 by its Unicode control picture (␛ for ESC), others by `\u{…}`. */
export function showControls(text: string): string {
  return text.replace(UNSAFE_CHARS, (c) => {
    const code = c.charCodeAt(0)
    if (code < 0x20) return String.fromCharCode(0x2400 + code)
    if (code === 0x7f) return '\u2421'
    return `\\u{${code.toString(16)}}`
  })
}

/**
 * What a renderer could turn into a link by itself (GFM's and linkify's autolinks): a URL with a scheme, a
 * `www.` host, an e-mail address. Prose shows them in code spans, where no renderer makes a link.
 */
const AUTOLINKABLE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>`]*|\bwww\.[^\s<>`]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi

/** `text` as an inline code span no backtick in it can end. */
function codeSpan(text: string): string {
  let longest = 0
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length)
  const fence = '`'.repeat(longest + 1)
  return `${fence} ${text} ${fence}`
}

/**
 * Text for Markdown prose, inert whatever renders it: no HTML (`<` and `&` as entities, which every renderer
 * shows as text), and no link or image made from content — `\`, `[`, `]` and `![` backslash-escaped, so no
 * `[…](…)`, `![…](…)`, `[…][…]` or `[…]: …` can form, and what an autolinker would pick up in a code span.
 */
export function markdownProse(text: string): string {
  const shown = showControls(text)
  let out = ''
  let at = 0
  const escape = (part: string): string =>
    part
      .replace(/[\\[\]]|!(?=\[)/g, (c) => `\\${c}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
  for (const match of shown.matchAll(AUTOLINKABLE)) {
    out += escape(shown.slice(at, match.index)) + codeSpan(match[0])
    at = match.index + match[0].length
  }
  return out + escape(shown.slice(at))
}

/** A backtick fence longer than any run of backticks in `text` (at least three), so the text cannot close it. */
export function fenceFor(text: string): string {
  let longest = 0
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length)
  return '`'.repeat(Math.max(3, longest + 1))
}

/** A fenced code block holding `text` verbatim (controls shown). */
export function fenced(text: string, info = ''): string {
  const body = showControls(text)
  const fence = fenceFor(body)
  return `${fence}${info}\n${body}${body.endsWith('\n') ? '' : '\n'}${fence}\n`
}

/** Text for an HTML text node or attribute value. */
export function escapeHtml(text: string): string {
  return showControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** What an island must not hold as is: markup characters, and characters old parsers or terminals misread. */
const ISLAND_UNSAFE = /[<>&\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * JSON for a `<script type="application/json">` island: `<`, `>` and `&` as \u escapes so no `</script>` or
 * `<!--` can end or change the element; U+2028/2029 escaped for older parsers. JSON.parse restores them.
 * One pass over the JSON (an export's every byte goes through here).
 */
export function jsonIsland(value: unknown): string {
  return JSON.stringify(value).replace(
    ISLAND_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
