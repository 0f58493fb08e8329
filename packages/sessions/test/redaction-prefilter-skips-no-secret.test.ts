/**
 * The redactor runs a rule only on texts holding one of the rule's literal anchors (redact/anchor-scan.ts).
 * These prove the shortcut changes no finding: on texts mixing planted secrets, near-misses and noise, what
 * the redactor finds equals what every rule finds when run on every text; and the keyword-first scan of
 * `name = value` assignments finds exactly what trying the grammar at the end of every name finds; and the
 * one-pass anchor scan finds exactly the anchors a search for each one finds.
 */
import { describe, expect, it } from 'vitest'
import { findSecrets } from '../src/index.js'
import { AnchorScan, type Anchor } from '../src/redact/anchor-scan.js'
import { assignedValues } from '../src/redact/assignments.js'
import { mergeFindings } from '../src/redact/redactor.js'
import { RULE_SETS } from '../src/redact/rule-sets.js'
import { fakeSecrets, prng } from './fixtures/fake-secrets.js'

const ALL_ANCHORS = RULE_SETS.flatMap((rules) => rules.anchors)

/** Every rule on `text`, no prefilter: all anchors count as present. */
function unfiltered(text: string): { start: number; end: number; kind: string }[] {
  const all = new Set(ALL_ANCHORS.map((a) => a.text))
  return mergeFindings(RULE_SETS.flatMap((rules) => rules.scan(text, all)))
}

/**
 * The `name = value` grammar tried at the end of every run of name characters holding a keyword no more
 * than 64 characters before its end (and from there back at most 64 characters before the first keyword),
 * skipping names inside a value already taken: what assignedValues must find, keyword first.
 */
const NAME_RUN = /[A-Za-z0-9_.-]+/g
const KEYWORD_IN_NAME = /key|token|secret|pass|pwd|credential|auth/gi
const SEPARATOR = /(?:\\{0,3}["'`])?[ \t]{0,8}(?:=>|:=|=(?!=)|:(?!:))[ \t]{0,8}/y
/** After `--name`: spaces, and a value that is not another option. */
const OPTION_SEPARATOR = /[ \t]+(?=[^\s-])/y
/** A value quoted by one character (a backslash escapes), by an escaped quote (`\"`), or bare. */
const QUOTED_OR_BARE =
  /(?:(?<q1>["'`])(?<quoted1>(?:\\[^]|(?!\k<q1>)[^\r\n\\])+?)\k<q1>|(?<q2>\\{1,3}["'`])(?<quoted2>(?:(?!\k<q2>)[^\r\n])+?)\k<q2>|(?<bare>[^\s"'`\\,;&()[\]{}<>|]+))/y
function assignmentsByBruteForce(text: string): number[][] {
  const out: number[][] = []
  let taken = 0
  for (const run of text.matchAll(NAME_RUN)) {
    const runEnd = run.index + run[0].length
    if (runEnd <= taken) continue
    const keywords = [...run[0].matchAll(KEYWORD_IN_NAME)]
    if (!keywords.some((k) => run[0].length - (k.index + k[0].length) <= 64)) continue
    let nameStart = Math.max(run.index, run.index + keywords[0]!.index - 64)
    // After a JSON escape (`\nAPI_KEY`), the name starts past its letter.
    if (text[nameStart - 1] === '\\' && /[nrt]/.test(text[nameStart]!)) nameStart++
    SEPARATOR.lastIndex = runEnd
    let separator = SEPARATOR.exec(text)
    if (separator === null && text[nameStart] === '-') {
      OPTION_SEPARATOR.lastIndex = runEnd
      separator = OPTION_SEPARATOR.exec(text)
    }
    if (separator === null) continue
    QUOTED_OR_BARE.lastIndex = runEnd + separator[0].length
    const m = QUOTED_OR_BARE.exec(text)
    if (m === null) continue
    const groups = m.groups!
    const value = groups.quoted1 ?? groups.quoted2 ?? groups.bare ?? ''
    const start = m.index + (groups.q1 ?? groups.q2 ?? '').length
    if (value.length > 511) continue
    out.push([start, start + value.length])
    taken = start + value.length
  }
  return out
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
  '-----BEGIN EC PRIVATE KEY-----',
  '-----END PRIVATE KEY-----',
  'MC4CAQAwBQYDK2VwBCIEIDWhohPMlo3YnSxG0y9UwT6D3eUK6D5PVMRZI2v/zpio',
  '\\n',
  'Authorization: Bearer ',
  'Basic dXNlcjpwYXNz',
  'curl -u admin:',
  ' -pS3cret',
  'mysql',
  'redis://:',
  'sk_live_',
  'whsec_',
  'AKIAQ3EGRT5YKZ7WMXPN ',
  'PGPASSWORD=',
  "SECRET_KEY='",
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
    const anchors = ALL_ANCHORS
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

  it('finds `name = value` assignments exactly where the grammar tried at every name does', () => {
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
          // A name with a suffix around the 64-character bound, a separator, a value quoted or not.
          const quote = pick(['', '', '"', "'", '\\"', '`'])
          text +=
            pick(['', '', '\\n', '\\t', '\\n--']) +
            run(NAME, Math.floor(random() * 8)) +
            pick(['key', 'TOKEN', 'Secret', 'password', 'passwd', 'pwd', 'credential', 'auth', 'PASS']) +
            run(NAME, pick([0, 3, 62, 63, 64, 65, 66])) +
            pick(['=', ' = ', ':', '=>', '"=', '\\":"', "='", '          =', '= \\', ':=', '::', ' ']) +
            quote +
            run(VALUE + ' \\"\'', pick([1, 5, 16, 40])) +
            pick([quote, '', ' ', '\n'])
        } else if (roll < 0.7) text += FRAGMENTS[Math.floor(random() * 16)]
        else {
          const n = Math.floor(random() * 40)
          for (let c = 0; c < n; c++) text += NOISE[Math.floor(random() * NOISE.length)]
        }
      }
      const found = assignedValues(text).map((v) => [v.start, v.end])
      expect(found, JSON.stringify(text)).toEqual(assignmentsByBruteForce(text))
    }
  })
})
