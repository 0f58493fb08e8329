/**
 * What secretlint's recommended rules leave out and the issue asks for: JWTs, Google API keys, credentials in
 * any URL scheme (secretlint covers http(s)/ftp, MySQL, PostgreSQL and MongoDB), and generic high-entropy
 * `…_KEY=` / `token:` assignments. Each is a documented shape plus a check that keeps prose out: a JWT's
 * header must decode to JSON naming an `alg`; an assignment's value must look random (Shannon entropy).
 */
import type { SecretFinding } from './finding.js'

/** A JWT is three base64url parts, the first two JSON objects (so both start with `eyJ`, base64 of `{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,4096}/g

/** Google API keys: `AIza` and 35 URL-safe characters (Google Cloud's documented key format). */
const GOOGLE_API_KEY = /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g

/** `scheme://user:password@host` for any scheme; the password group is what is redacted. */
const URL_CREDENTIAL =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]{1,100}:(?<password>[^\s@/'"]{3,200})@[^\s/'"]/gi

/**
 * `<name containing key|token|secret|password…> = value` (also `:`, `=>`, quoted names and values). The value
 * group is what is redacted, when it is long and random enough.
 */
const ASSIGNMENT =
  /(?<name>[A-Za-z0-9_.-]{0,64}(?:key|token|secret|passw(?:or)?d|pwd|credential|auth)[A-Za-z0-9_.-]{0,64})\\?["']?\s{0,8}(?:=|:|=>)\s{0,8}\\?["']?(?<value>[A-Za-z0-9+/=_\-.~]{16,512})/gi

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

export function scanStructural(text: string): SecretFinding[] {
  const out: SecretFinding[] = []
  for (const match of text.matchAll(JWT)) {
    if (isJwtHeader(match[0].slice(0, match[0].indexOf('.'))))
      out.push({ start: match.index, end: match.index + match[0].length, kind: 'jwt' })
  }
  for (const match of text.matchAll(GOOGLE_API_KEY)) {
    out.push({ start: match.index, end: match.index + match[0].length, kind: 'google-api-key' })
  }
  for (const match of text.matchAll(URL_CREDENTIAL)) {
    const password = match.groups?.password ?? ''
    if (NOT_A_SECRET.test(password)) continue
    // The password ends right before the '@' that the match's last two characters are.
    const end = match.index + match[0].length - 2
    out.push({ start: end - password.length, end, kind: 'connection-string' })
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    const value = match.groups?.value ?? ''
    if (!looksRandom(value)) continue
    const end = match.index + match[0].length
    out.push({ start: end - value.length, end, kind: 'generic-secret' })
  }
  return out
}
