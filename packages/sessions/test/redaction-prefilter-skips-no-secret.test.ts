/**
 * The redactor runs a rule only on texts holding one of the rule's literal anchors (redact/anchor-scan.ts).
 * These prove the shortcut changes no finding: on texts mixing planted secrets, near-misses and noise, what
 * the redactor finds equals what every rule finds when run on every text; and the keyword-first scan of
 * `name = value` assignments finds exactly what the documented pattern finds; and the one-pass anchor scan
 * finds exactly the anchors a search for each one finds.
 */
import { describe, expect, it } from 'vitest'
import { findSecrets } from '../src/index.js'
import { AnchorScan, type Anchor } from '../src/redact/anchor-scan.js'
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
  'AWS_SECRET_ACCESS_KEY=',
  'SecretAccessKey: ',
  'secret_Access',
  'https://HOOKS.slack.com/services/',
  'HTTPS://Hooks.Slack.COM/Services/T0A1B2C3/B0A1B2C3/aBcD1234eFgH',
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

  /** The anchors `text` holds, each searched for on its own: what AnchorScan must find. */
  function holds(anchors: readonly Anchor[], text: string): string[] {
    // Any case means ASCII letters in either case, as the rules' `[kK]` classes do: `K`.toLowerCase() is `k`.
    const folded = text.replace(/[A-Z]/g, (c) => c.toLowerCase())
    const found = anchors
      .filter((a) => (a.caseless === true ? folded.includes(a.text.toLowerCase()) : text.includes(a.text)))
      .map((a) => a.text)
    return [...new Set(found)].sort()
  }

  it('finds exactly the anchors a text holds, on anchor sets where some end inside others', () => {
    // A small alphabet makes anchors that are suffixes of other anchors' beginnings (`ab` in `bab…`), found
    // only through the automaton's failure links, and the same text both caseless and not.
    const random = prng(3)
    const word = (alphabet: string, n: number): string => {
      let out = ''
      for (let c = 0; c < n; c++) out += alphabet[Math.floor(random() * alphabet.length)]
      return out
    }
    for (let set = 0; set < 300; set++) {
      const anchors: Anchor[] = []
      for (let a = 0, n = 1 + Math.floor(random() * 8); a < n; a++) {
        const text = word('abAB_', 1 + Math.floor(random() * 5))
        anchors.push(random() < 0.5 ? { text } : { text, caseless: true })
      }
      const scan = new AnchorScan(anchors)
      for (let i = 0; i < 50; i++) {
        const text = word('abAB_xé', Math.floor(random() * 30))
        expect([...scan.scan(text)].sort(), JSON.stringify({ anchors, text })).toEqual(holds(anchors, text))
      }
    }
  })

  it('finds exactly the anchors a text holds, each searched for on its own', () => {
    const anchors = [...SECRETLINT_ANCHORS, ...STRUCTURAL_ANCHORS]
    const scan = new AnchorScan(anchors)
    const random = prng(5)
    // Anchors in every case (a case-sensitive one must not be found in another case), cut short, overlapping
    // (`passwd` holds `pass`… `hvs.` after `h`), next to noise and non-ASCII (`K`, the Kelvin sign, is not `k`).
    const pieces = [
      ...anchors.map((a) => a.text),
      ...anchors.map((a) => a.text.toUpperCase()),
      ...anchors.map((a) => a.text.toLowerCase()),
      ...anchors.map((a) => a.text.slice(0, -1)),
      ...anchors.map((a) => a.text.slice(1)),
      'ghp',
      'h',
      'sk-ant-api',
      '\u212a' + 'ey',
      'é',
      '😀',
    ]
    for (let i = 0; i < 5000; i++) {
      let text = ''
      const parts = Math.floor(random() * 8)
      for (let p = 0; p < parts; p++) {
        if (random() < 0.6) text += pieces[Math.floor(random() * pieces.length)]
        else {
          const n = Math.floor(random() * 6)
          for (let c = 0; c < n; c++) text += NOISE[Math.floor(random() * NOISE.length)]
        }
      }
      expect([...scan.scan(text)].sort(), JSON.stringify(text)).toEqual(holds(anchors, text))
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
