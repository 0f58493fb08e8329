/**
 * The redactor runs a rule only on texts holding one of the rule's literal anchors (redact/anchor-scan.ts).
 * These prove the shortcut changes no finding: on texts mixing planted secrets, near-misses and noise, what
 * the redactor finds equals what every rule finds when run on every text; and the keyword-first scan of
 * `name = value` assignments finds exactly what the documented pattern finds.
 */
import { describe, expect, it } from 'vitest'
import { findSecrets } from '../src/index.js'
import { SECRETLINT_ANCHORS, scanWithSecretlint } from '../src/redact/secretlint-rules.js'
import { STRUCTURAL_ANCHORS, assignedValues, scanStructural } from '../src/redact/structural-rules.js'
import { fakeSecrets, prng } from './fixtures/fake-secrets.js'

/** The pattern the keyword-first scan replaces, as it was documented and shipped. */
const ASSIGNMENT =
  /(?<name>[A-Za-z0-9_.-]{0,64}(?:key|token|secret|passw(?:or)?d|pwd|credential|auth)[A-Za-z0-9_.-]{0,64})\\?["']?\s{0,8}(?:=|:|=>)\s{0,8}\\?["']?(?<value>[A-Za-z0-9+/=_\-.~]{16,512})/gi

/** Every rule on `text`, no prefilter: all anchors count as present. */
function unfiltered(text: string): { start: number; end: number; kind: string }[] {
  const all = new Set([...SECRETLINT_ANCHORS, ...STRUCTURAL_ANCHORS].map((a) => a.text))
  const found = [...scanWithSecretlint(text, all), ...scanStructural(text, all)]
    .filter((f) => f.end > f.start)
    .sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: { start: number; end: number; kind: string }[] = []
  for (const finding of found) {
    const last = merged.at(-1)
    if (last !== undefined && finding.start < last.end) {
      if (finding.end > last.end) merged[merged.length - 1] = { ...last, end: finding.end }
      continue
    }
    merged.push(finding)
  }
  return merged
}

const FRAGMENTS = [
  'api_key',
  'API_KEY',
  'x'.repeat(70) + 'Token',
  'secretoken',
  'my.auth-Pwd',
  'PASSWORD',
  'passwd',
  'Credential',
  ' = ',
  '=',
  ':',
  '=>',
  '"',
  "'",
  '\\"',
  '         ',
  '\n',
  'https://',
  'postgres://',
  'user:pass@host.example.com/db',
  'eyJhbGciOiJIUzI1NiJ9',
  'AIza',
  'AKIA',
  'ghp_',
  'sk-ant-api03-',
  '-----BEGIN RSA PRIVATE KEY-----',
  'Secret',
  'account_id: 1234-5678-9012',
]
const NAME = 'abcXYZ019_.-'
const VALUE = 'aB3+/=_-.~xY9'
const NOISE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~ '

describe('the redaction prefilter', () => {
  it('finds what every rule run on every text finds', () => {
    const random = prng(7)
    const secrets = fakeSecrets(400, 3)
    for (let i = 0; i < 1500; i++) {
      let text = ''
      const parts = 1 + Math.floor(random() * 12)
      for (let p = 0; p < parts; p++) {
        const roll = random()
        if (roll < 0.15) text += secrets[Math.floor(random() * secrets.length)]!.text
        else if (roll < 0.6) text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]
        else {
          const n = Math.floor(random() * 60)
          for (let c = 0; c < n; c++) text += NOISE[Math.floor(random() * NOISE.length)]
        }
      }
      expect(findSecrets(text), JSON.stringify(text)).toEqual(text.length < 16 ? [] : unfiltered(text))
    }
  })

  it('finds `name = value` assignments exactly where the documented pattern does', () => {
    const random = prng(11)
    for (let i = 0; i < 3000; i++) {
      let text = ''
      const parts = 1 + Math.floor(random() * 10)
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
      const run = (alphabet: string, n: number): string => {
        let out = ''
        for (let c = 0; c < n; c++) out += alphabet[Math.floor(random() * alphabet.length)]
        return out
      }
      for (let p = 0; p < parts; p++) {
        const roll = random()
        if (roll < 0.4) {
          // A name with a suffix around the 64-character bound, a separator, a value around its bounds.
          text +=
            run(NAME, Math.floor(random() * 8)) +
            pick(['key', 'TOKEN', 'Secret', 'password', 'passwd', 'pwd', 'credential', 'auth']) +
            run(NAME, pick([0, 3, 62, 63, 64, 65, 66])) +
            pick(['=', ' = ', ':', '=>', '"=', '\\":"', "='", '          =', '= \\']) +
            run(VALUE, pick([15, 16, 17, 511, 512, 513]))
        } else if (roll < 0.7) text += FRAGMENTS[Math.floor(random() * 16)]
        else {
          const n = Math.floor(random() * 40)
          for (let c = 0; c < n; c++) text += NOISE[Math.floor(random() * NOISE.length)]
        }
      }
      const expected = [...text.matchAll(ASSIGNMENT)].map((m) => {
        const end = m.index + m[0].length
        return [end - (m.groups?.value ?? '').length, end]
      })
      // Every value, random-looking or not: the scan itself is compared, not the entropy check after it.
      const found = assignedValues(text).map((v) => [v.start, v.end])
      expect(found, JSON.stringify(text)).toEqual(expected)
    }
  })
})
