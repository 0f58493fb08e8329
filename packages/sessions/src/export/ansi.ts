/**
 * Terminal escapes in a transcript (a hook's coloured output, a test runner's) → plain text and style runs
 * for the page. Only SGR (`ESC [ … m`: bold, italic, colours…) becomes a style; every other escape (cursor
 * moves, OSC titles and hyperlinks, DCS…) is dropped whole, so nothing of it reaches the page. Styles are
 * tokens from a closed set, which the page's script maps to classes and checked colours: no transcript text
 * ever becomes a class name or a CSS value.
 */

/** A styled stretch of the shown text: [start, end) in UTF-16 units, and its style tokens joined by spaces. */
export type StyleRun = [start: number, end: number, style: string]

/** One piece of text under one style ('' = none). */
interface Segment {
  readonly text: string
  readonly style: string
}

/**
 * An escape sequence: CSI (`ESC [` or C1 `\x9b`, parameters, one final byte), OSC (`ESC ]` or `\x9d`, up to BEL
 * or ST), DCS/SOS/PM/APC (up to ST), or a two-character escape. An unterminated OSC/DCS runs to the end.
 */
const ESCAPE =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)([0-?]*)[ -/]*([@-~])|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c|$)|\u001b[ -/]*[0-~]?/g

/** The 256-colour palette's entry `n` (16–255) as a hex colour. */
function palette(n: number): string {
  if (n >= 232) {
    const v = (8 + (n - 232) * 10).toString(16).padStart(2, '0')
    return v + v + v
  }
  const i = n - 16
  const level = (c: number): string => (c === 0 ? 0 : 55 + c * 40).toString(16).padStart(2, '0')
  return level(Math.floor(i / 36)) + level(Math.floor(i / 6) % 6) + level(i % 6)
}

function hex(r: number, g: number, b: number): string {
  return [r, g, b].map((c) => Math.min(255, Math.max(0, c)).toString(16).padStart(2, '0')).join('')
}

/** The SGR state: attributes on, and the foreground and background as style tokens. */
class Sgr {
  #attrs = new Set<string>()
  #fg = ''
  #bg = ''

  get style(): string {
    return [...this.#attrs, this.#fg, this.#bg].filter((t) => t !== '').join(' ')
  }

  apply(params: string): void {
    const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)))
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i]!
      if (c === 0) {
        this.#attrs.clear()
        this.#fg = this.#bg = ''
      } else if (c === 1) this.#attrs.add('b')
      else if (c === 2) this.#attrs.add('d')
      else if (c === 3) this.#attrs.add('i')
      else if (c === 4) this.#attrs.add('u')
      else if (c === 9) this.#attrs.add('s')
      else if (c === 22) {
        this.#attrs.delete('b')
        this.#attrs.delete('d')
      } else if (c === 23) this.#attrs.delete('i')
      else if (c === 24) this.#attrs.delete('u')
      else if (c === 29) this.#attrs.delete('s')
      else if (c >= 30 && c <= 37) this.#fg = `f${c - 30}`
      else if (c >= 90 && c <= 97) this.#fg = `f${c - 82}`
      else if (c === 39) this.#fg = ''
      else if (c >= 40 && c <= 47) this.#bg = `g${c - 40}`
      else if (c >= 100 && c <= 107) this.#bg = `g${c - 92}`
      else if (c === 49) this.#bg = ''
      else if (c === 38 || c === 48) {
        // 38;5;n (palette) or 38;2;r;g;b (true colour); a malformed one ends the sequence.
        let token: string | undefined
        if (codes[i + 1] === 5 && Number.isInteger(codes[i + 2])) {
          const n = codes[i + 2]!
          token =
            n < 16 ? `${c === 38 ? 'f' : 'g'}${n}` : `${c === 38 ? 'F' : 'G'}${palette(Math.min(n, 255))}`
          i += 2
        } else if (codes[i + 1] === 2 && codes.length >= i + 5) {
          token = `${c === 38 ? 'F' : 'G'}${hex(codes[i + 2]!, codes[i + 3]!, codes[i + 4]!)}`
          i += 4
        } else return
        if (c === 38) this.#fg = token
        else this.#bg = token
      }
    }
  }
}

/** Whether `text` holds anything `styledText` would change. */
export function hasEscapes(text: string): boolean {
  return text.includes('\u001b') || /[\u0090\u0098\u009b\u009d\u009e\u009f]/.test(text)
}

/**
 * Text with its escapes taken out, and the SGR styles as runs over the result. `show` is applied to each
 * piece of text (controls made visible) before offsets are counted, so the runs fit the text as shown.
 */
export function styledText(
  text: string,
  show: (text: string) => string,
): { readonly text: string; readonly runs?: StyleRun[] } {
  if (!hasEscapes(text)) return { text: show(text) }
  const segments: Segment[] = []
  const sgr = new Sgr()
  let at = 0
  ESCAPE.lastIndex = 0
  for (let m = ESCAPE.exec(text); m !== null; m = ESCAPE.exec(text)) {
    if (m.index > at) segments.push({ text: text.slice(at, m.index), style: sgr.style })
    if (m[2] === 'm') sgr.apply(m[1] ?? '')
    at = m.index + m[0].length
  }
  if (at < text.length) segments.push({ text: text.slice(at), style: sgr.style })
  let out = ''
  const runs: StyleRun[] = []
  for (const segment of segments) {
    const shown = show(segment.text)
    if (segment.style !== '' && shown !== '') {
      const last = runs[runs.length - 1]
      if (last !== undefined && last[1] === out.length && last[2] === segment.style) last[1] += shown.length
      else runs.push([out.length, out.length + shown.length, segment.style])
    }
    out += shown
  }
  return runs.length === 0 ? { text: out } : { text: out, runs }
}
