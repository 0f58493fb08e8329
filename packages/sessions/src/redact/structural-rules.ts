/**
 * JSON Web Tokens, and the tests the other rules share to keep prose out: a JWT's header must decode to JSON
 * naming an `alg`; a value named by a weak keyword must look random (Shannon entropy); placeholders and
 * references (`$VAR`, `{{x}}`, `<token>`, `your-api-key`) are never secrets.
 */
import type { RuleSet, SecretFinding } from './finding.js'

/** A JWT is three base64url parts, the first two JSON objects (so both start with `eyJ`, base64 of `{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,4096}/g

/**
 * Bits per character a value needs to count as random. Mixed-case and base64 secrets score 4.5+, English
 * words and identifiers ~3–3.5; hex has 16 symbols (at most 4 bits), and a random 40-digit hex token scores
 * 3.3–3.9, so hex values have a lower bar.
 */
const MIN_ENTROPY_BITS = 3.5
const MIN_HEX_ENTROPY_BITS = 3

/** Placeholders and variables that look like assignments but hold no secret. */
export const NOT_A_SECRET =
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
export function looksRandom(value: string): boolean {
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value) || NOT_A_SECRET.test(value)) return false
  const bits = shannonEntropy(value)
  if (value.includes('/')) {
    // Base64 can hold '/', paths hold it too: a path starts like one or has a dot (an extension, a domain).
    return !/^[./~]/.test(value) && !value.includes('.') && bits >= MIN_SLASHED_ENTROPY_BITS
  }
  return bits >= (/^[0-9a-f]+$/i.test(value) ? MIN_HEX_ENTROPY_BITS : MIN_ENTROPY_BITS)
}

function scanJwts(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  const out: SecretFinding[] = []
  if (hits.has('eyJ'))
    for (const match of text.matchAll(JWT)) {
      if (isJwtHeader(match[0].slice(0, match[0].indexOf('.'))))
        out.push({ start: match.index, end: match.index + match[0].length, kind: 'jwt' })
    }
  return out
}

export const JWTS: RuleSet = { anchors: [{ text: 'eyJ' }], scan: scanJwts }
