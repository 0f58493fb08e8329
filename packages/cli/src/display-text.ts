/**
 * Makes text read from a file safe to print on a terminal. Transcripts hold untrusted text (model output,
 * tool output, file contents) and users point the CLI at files we did not write: a raw ESC could clear the
 * screen, retitle the window or plant a hyperlink (OSC 8). Every control character is replaced by a
 * visible stand-in, so an escape *sequence* loses its introducer and prints as inert text:
 * `\x1b[2J` → `␛[2J`.
 *
 * - C0 controls U+0000–U+001F and DEL → the Control Pictures block (`␀`…`␟`, `␡`): one column each, and
 *   obviously not part of the data's own text.
 * - C1 controls U+0080–U+009F (U+009B is a one-character CSI, U+009D an OSC), bidi marks, embeddings,
 *   overrides and isolates (which reorder what follows: "Trojan Source"), U+2028/U+2029 → `⟨U+XXXX⟩`.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
// The same, minus `\n` and `\t`, for multi-line bodies (each body line is indented by the caller).
const UNSAFE_BLOCK =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const CONTROL_PICTURES = 0x2400
const DEL = 0x7f

function visible(char: string): string {
  const code = char.charCodeAt(0)
  if (code < 0x20) return String.fromCharCode(CONTROL_PICTURES + code)
  if (code === DEL) return '\u2421'
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

/** For one-line contexts (titles, types, keys, uuids, paths, problem details): every control is made visible. */
export function displayLine(text: string): string {
  return text.replace(UNSAFE_LINE, visible)
}

/** For multi-line bodies: like {@link displayLine}, but newlines and tabs are kept. */
export function displayBlock(text: string): string {
  return text.replace(UNSAFE_BLOCK, visible)
}
