/**
 * Private keys in every armored form, whatever the length of their body: PEM (PKCS#1 `RSA PRIVATE KEY`, SEC1
 * `EC PRIVATE KEY`, `DSA PRIVATE KEY`, PKCS#8 `PRIVATE KEY` and `ENCRYPTED PRIVATE KEY`, RFC 7468), OpenSSH's
 * `OPENSSH PRIVATE KEY`, OpenPGP's `PGP PRIVATE KEY BLOCK` (RFC 4880 armor), SSH.com's `---- BEGIN SSH2
 * ENCRYPTED PRIVATE KEY ----` and PuTTY's `Private-Lines:`. The label decides, never the body: an Ed25519
 * PKCS#8 key is 64 characters of base64, and a rule that wants a long body starting `MI` misses it.
 *
 * A block from its BEGIN line to its END line is replaced whole, whatever lies between: newlines as `\n`
 * escapes of a JSON string (or `\\n`, escaped twice), a list of quoted lines, `Proc-Type:` headers. A block
 * cut short (a `head` of the file, a key split over two messages) is replaced from its marker through the
 * lines that look like a key's (base64, `Name: value` headers, blank), and an END without its BEGIN back to
 * where such lines start.
 */
import type { Anchor } from './anchor-scan.js'
import type { RuleSet, SecretFinding } from './finding.js'

/** A BEGIN or END line of a private key's armor (4 dashes and spaces: SSH.com's form). */
const MARKER = /-{4,5} ?(BEGIN|END) ((?:[A-Z0-9]+ ){0,4}(?:PRIVATE|SECRET) KEY(?: BLOCK)?) ?-{4,5}/g

/** PuTTY's private part: `Private-Lines: <n>` and the base64 lines after it. */
const PUTTY_PRIVATE = /Private-Lines: ?\d{1,4}/g

/**
 * The most characters between a BEGIN and its END: an armored OpenPGP secret key with RSA-4096 subkeys is
 * ~14 KB, twice that with every newline escaped twice. Farther apart, the BEGIN counts as cut short.
 */
const MAX_BLOCK = 64 * 1024

/** A line break as written, as a JSON escape, or escaped twice (a JSON string inside a JSON string). */
const LINE_BREAK = /\r?\n|(?:\\{1,2}r)?\\{1,2}n/g

/**
 * A line of a key's body, once the quotes, commas and `+` of a list or a concatenation of strings around it
 * and the line number a file viewer puts first (Claude Code's Read `   12→`, `cat -n`'s tab, `grep -n`'s `:`)
 * are set aside: base64, an armor checksum (`=abcd`), a header (`Proc-Type: 4,ENCRYPTED`, `Comment: …`) or
 * nothing. (Set aside by code, not by a pattern: `[junk]*(…)?[junk]*$` backtracks quadratically on a long
 * line of spaces.)
 */
// The OpenPGP checksum line `=XXXX` may end in `+`, which is trimmed as list punctuation: 1–4 characters.
const BODY_CORE =
  /^(?:[A-Za-z0-9+/]{2,}={0,2}|=[A-Za-z0-9+/]{1,4}|[A-Za-z][A-Za-z0-9-]{1,30}: ?[^\r\n]{0,200})?$/
const LINE_NUMBER = /^\d{1,7}(?:→|\t|\\t|:) ?/
const BASE64_RUN = /^[A-Za-z0-9+/]{16,}={0,2}/

function isJunk(code: number): boolean {
  // Whitespace, " ' ` , +
  return code <= 0x20 || code === 0x22 || code === 0x27 || code === 0x60 || code === 0x2c || code === 0x2b
}

function isBase64(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  )
}

/** Where a line's content starts, past leading junk and a line number. */
function contentStart(line: string): number {
  let at = 0
  while (at < line.length && isJunk(line.charCodeAt(at))) at++
  const number = LINE_NUMBER.exec(line.slice(at, at + 12))
  if (number !== null) {
    at += number[0].length
    while (at < line.length && isJunk(line.charCodeAt(at))) at++
  }
  return at
}

function isBodyLine(line: string): boolean {
  const start = contentStart(line)
  let end = line.length
  while (end > start && isJunk(line.charCodeAt(end - 1))) end--
  return BODY_CORE.test(line.slice(start, end))
}

/** Where the base64 opening a line ends (the line is not all body), or -1. */
function leadingBase64End(line: string): number {
  const start = contentStart(line)
  const run = BASE64_RUN.exec(line.slice(start, start + MAX_BLOCK))
  return run === null ? -1 : start + run[0].length
}

/** Where the base64 closing a line starts (a list's first item after `KEY = [`), or -1. */
function trailingBase64Start(line: string): number {
  let end = line.length
  while (end > 0 && isJunk(line.charCodeAt(end - 1))) end--
  let start = end
  for (let pad = 0; pad < 2 && start > 0 && line[start - 1] === '='; pad++) start--
  const padded = start
  while (start > 0 && isBase64(line.charCodeAt(start - 1))) start--
  return padded - start >= 16 ? start : -1
}

/** Where the key-like lines from `from` on end (a block cut short after its BEGIN). */
function bodyForward(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_BLOCK)
  let end = from
  let at = from
  while (at < limit) {
    LINE_BREAK.lastIndex = at
    const lineBreak = LINE_BREAK.exec(text)
    const lineEnd = lineBreak === null || lineBreak.index > limit ? limit : lineBreak.index
    const line = text.slice(at, lineEnd)
    if (!isBodyLine(line)) {
      const base64End = leadingBase64End(line)
      return base64End === -1 ? end : at + base64End
    }
    end = lineEnd
    if (lineBreak === null || lineEnd === limit) break
    at = lineEnd + lineBreak[0].length
  }
  return end
}

/**
 * Where the key-like lines before `to` start (an END whose BEGIN is not in this text), looking no farther
 * back than `floor` (the end of the previous finding: each stretch is walked once, however many ENDs).
 */
function bodyBackward(text: string, to: number, floor: number): number {
  const from = Math.max(floor, to - MAX_BLOCK)
  // The lines of the window, found forwards (a regex cannot search backwards), then walked back.
  const lines: (readonly [number, number])[] = []
  let at = from
  LINE_BREAK.lastIndex = from
  for (let lineBreak = LINE_BREAK.exec(text); ; lineBreak = LINE_BREAK.exec(text)) {
    if (lineBreak === null || lineBreak.index >= to) {
      lines.push([at, to])
      break
    }
    lines.push([at, lineBreak.index])
    at = lineBreak.index + lineBreak[0].length
  }
  let start = to
  for (let i = lines.length - 1; i >= 0; i--) {
    const [lineStart, lineEnd] = lines[i]!
    const line = text.slice(lineStart, lineEnd)
    if (!isBodyLine(line)) {
      const base64Start = trailingBase64Start(line)
      return base64Start === -1 ? start : lineStart + base64Start
    }
    start = lineStart
  }
  return start
}

interface Marker {
  readonly begin: boolean
  readonly start: number
  readonly end: number
}

function markers(text: string): Marker[] {
  const out: Marker[] = []
  MARKER.lastIndex = 0
  for (let m = MARKER.exec(text); m !== null; m = MARKER.exec(text)) {
    out.push({ begin: m[1] === 'BEGIN', start: m.index, end: m.index + m[0].length })
  }
  return out
}

function scanKeyBlocks(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  const out: SecretFinding[] = []
  if (hits.has('PRIVATE KEY') || hits.has('SECRET KEY')) {
    const found = markers(text)
    let covered = 0
    for (let i = 0; i < found.length; i++) {
      const marker = found[i]!
      if (marker.start < covered) continue
      let end: number
      let start = marker.start
      if (marker.begin) {
        const next = found[i + 1]
        end =
          next !== undefined && !next.begin && next.start - marker.end <= MAX_BLOCK
            ? next.end
            : bodyForward(text, marker.end)
      } else {
        start = bodyBackward(text, marker.start, covered)
        end = marker.end
      }
      out.push({ start, end, kind: 'private-key' })
      covered = end
    }
  }
  if (hits.has('Private-Lines')) {
    PUTTY_PRIVATE.lastIndex = 0
    for (let m = PUTTY_PRIVATE.exec(text); m !== null; m = PUTTY_PRIVATE.exec(text)) {
      const end = bodyForward(text, m.index + m[0].length)
      out.push({ start: m.index, end, kind: 'private-key' })
      PUTTY_PRIVATE.lastIndex = Math.max(end, PUTTY_PRIVATE.lastIndex)
    }
  }
  return out
}

const ANCHORS: readonly Anchor[] = [
  { text: 'PRIVATE KEY' },
  { text: 'SECRET KEY' },
  { text: 'Private-Lines' },
]

export const KEY_BLOCKS: RuleSet = { anchors: ANCHORS, scan: scanKeyBlocks }
