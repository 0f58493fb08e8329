/**
 * What secretlint's recommended rules leave out and the issue asks for: JWTs, Google API keys, credentials in
 * any URL scheme (secretlint covers http(s)/ftp, MySQL, PostgreSQL and MongoDB), and generic high-entropy
 * `…_KEY=` / `token:` assignments. Each is a documented shape plus a check that keeps prose out: a JWT's
 * header must decode to JSON naming an `alg`; an assignment's value must look random (Shannon entropy).
 */
import type { Anchor } from './anchor-scan.js'
import type { SecretFinding } from './finding.js'

/** A JWT is three base64url parts, the first two JSON objects (so both start with `eyJ`, base64 of `{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,4096}/g

/** Google API keys: `AIza` and 35 URL-safe characters (Google Cloud's documented key format). */
const GOOGLE_API_KEY = /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g

/** `scheme://user:password@host` for any scheme; the password group is what is redacted. */
const URL_CREDENTIAL =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]{1,100}:(?<password>[^\s@/'"]{3,200})@[^\s/'"]/gi

/**
 * `<name containing key|token|secret|password…> = value` (also `:`, `=>`, quoted names and values), as the
 * pattern `[A-Za-z0-9_.-]{0,64}(?:key|token|secret|passw(?:or)?d|pwd|credential|auth)[A-Za-z0-9_.-]{0,64}`
 * followed by AFTER_NAME would find it (case-insensitive), found keyword first: that pattern starts with a
 * class of up to 64 characters and cost a backtracking attempt at every position of every text. A keyword
 * is part of a run of name characters; the name's end is that run's end (nothing after it can be a name
 * character), so a keyword ending at most 64 characters before the run's end is a name, whatever precedes it.
 */
const KEYWORD = /key|token|secret|passw(?:or)?d|pwd|credential|auth/gi
/** The separator and the value after a name; the value group is what is redacted (when it looks random). */
const AFTER_NAME = /\\?["']?\s{0,8}(?:=|:|=>)\s{0,8}\\?["']?(?<value>[A-Za-z0-9+/=_\-.~]{16,512})/y
/** Name characters allowed after the keyword. */
const MAX_NAME_SUFFIX = 64
/** The longest keyword (`credential`). */
const MAX_KEYWORD = 10

function isNameChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2e || // .
    code === 0x2d // -
  )
}

/** The values of `name = value` assignments in `text`, non-overlapping, in order. @internal exported for its test */
export function assignedValues(text: string): { start: number; end: number; value: string }[] {
  const out: { start: number; end: number; value: string }[] = []
  // The run of name characters the last keyword was in: every keyword in one run shares its end.
  let runFrom = -1
  let runEnd = -1
  KEYWORD.lastIndex = 0
  for (let match = KEYWORD.exec(text); match !== null; match = KEYWORD.exec(text)) {
    const keywordEnd = match.index + match[0].length
    if (match.index >= runEnd || match.index < runFrom) {
      runFrom = match.index
      runEnd = keywordEnd
      while (runEnd < text.length && isNameChar(text.charCodeAt(runEnd))) runEnd++
    }
    if (runEnd - keywordEnd > MAX_NAME_SUFFIX) {
      // Too far from the name's end: only a keyword nearer the end can make this run a name.
      KEYWORD.lastIndex = Math.max(match.index + 1, runEnd - MAX_NAME_SUFFIX - MAX_KEYWORD)
      continue
    }
    AFTER_NAME.lastIndex = runEnd
    const after = AFTER_NAME.exec(text)
    if (after === null) {
      // No separator and value after this run: no other keyword of it can do better.
      KEYWORD.lastIndex = runEnd
      continue
    }
    const value = after.groups?.value ?? ''
    const end = after.index + after[0].length
    out.push({ start: end - value.length, end, value })
    KEYWORD.lastIndex = end
  }
  return out
}

/**
 * Bits per character a value needs to count as random. Mixed-case and base64 secrets score 4.5+, English
 * words and identifiers ~3–3.5; hex has 16 symbols (at most 4 bits), and a random 40-digit hex token scores
 * 3.3–3.9, so hex values have a lower bar.
 */
const MIN_ENTROPY_BITS = 3.5
const MIN_HEX_ENTROPY_BITS = 3

/** Placeholders and variables that look like assignments but hold no secret. */
const NOT_A_SECRET =
  /^(?:\$|\{\{|<|%|process\.env|os\.environ|env\.)|REDACTED|example|placeholder|x{6,}|changeme|your[_-]/i

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>()
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / value.length
    bits -= p * Math.log2(p)
  }
  return bits
}

function isJwtHeader(part: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof header === 'object' && header !== null && 'alg' in header
  } catch {
    // Not base64url JSON: not a JWT.
    return false
  }
}

/** Bits per character a value with a '/' needs: base64 secrets score ~5, slash-separated words well under 4. */
const MIN_SLASHED_ENTROPY_BITS = 4

/** A value worth hiding: long, random-looking, with letters and digits, not a placeholder or a path. */
function looksRandom(value: string): boolean {
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value) || NOT_A_SECRET.test(value)) return false
  const bits = shannonEntropy(value)
  if (value.includes('/')) {
    // Base64 can hold '/', paths hold it too: a path starts like one or has a dot (an extension, a domain).
    return !/^[./~]/.test(value) && !value.includes('.') && bits >= MIN_SLASHED_ENTROPY_BITS
  }
  return bits >= (/^[0-9a-f]+$/i.test(value) ? MIN_HEX_ENTROPY_BITS : MIN_ENTROPY_BITS)
}

/** What each of these rules' findings contains (see anchor-scan.ts); keywords in any case. */
export const STRUCTURAL_ANCHORS: readonly Anchor[] = [
  { text: 'eyJ' },
  { text: 'AIza' },
  { text: '://' },
  ...['key', 'token', 'secret', 'passw', 'pwd', 'credential', 'auth'].map((text) => ({
    text,
    caseless: true,
  })),
]

function hasKeyword(hits: ReadonlySet<string>): boolean {
  for (const keyword of ['key', 'token', 'secret', 'passw', 'pwd', 'credential', 'auth'])
    if (hits.has(keyword)) return true
  return false
}

/** Findings of these rules in `text`, given the anchors it holds (rules whose anchors are absent are not run). */
export function scanStructural(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  const out: SecretFinding[] = []
  if (hits.has('eyJ'))
    for (const match of text.matchAll(JWT)) {
      if (isJwtHeader(match[0].slice(0, match[0].indexOf('.'))))
        out.push({ start: match.index, end: match.index + match[0].length, kind: 'jwt' })
    }
  if (hits.has('AIza'))
    for (const match of text.matchAll(GOOGLE_API_KEY)) {
      out.push({ start: match.index, end: match.index + match[0].length, kind: 'google-api-key' })
    }
  if (hits.has('://'))
    for (const match of text.matchAll(URL_CREDENTIAL)) {
      const password = match.groups?.password ?? ''
      if (NOT_A_SECRET.test(password)) continue
      // The password ends right before the '@' that the match's last two characters are.
      const end = match.index + match[0].length - 2
      out.push({ start: end - password.length, end, kind: 'connection-string' })
    }
  if (hasKeyword(hits)) {
    for (const { start, end, value } of assignedValues(text)) {
      if (looksRandom(value)) out.push({ start, end, kind: 'generic-secret' })
    }
  }
  return out
}
