/**
 * Secrets given a name: `NAME=value`, `name: value`, `"name": "value"`, `'name' => 'value'`, `--name=value`
 * and `--name value`, with any quoting (none, `'…'`, `"…"`, `` `…` ``, JSON-escaped `\"…\"`) and any
 * characters inside quotes (`SECRET_KEY='django-insecure-#x9&k…'`).
 *
 * How much a value must look like a secret depends on what its name says:
 * - a name that says password, passphrase, secret or credential (`PGPASSWORD`, `MYSQL_PWD`, `db_pass`,
 *   `client_secret`), or names a key or token by what it is for (`api_key`, `x-api-key`, `SECRET_KEY_BASE`,
 *   `access_token`, `GITHUB_TOKEN`): any literal value (a human password like `hunter22` included), unless it
 *   is a placeholder, a reference (`$VAR`, `process.env.X`, `self.password`, `getpass()`), a type, a boolean,
 *   a path or a word-only label (`"current-password"`). Its last word must not say it holds something about
 *   the secret instead (`password_min_length`, `secret_name`, `max_tokens`).
 * - any other name holding one of the keywords (`token`, `key`, `auth`): only a value that looks random
 *   (16+ characters, letters and digits, Shannon entropy over a bar), as before.
 *
 * Found keyword first (see assignedValues): a pattern starting with a 64-character class of name characters
 * cost a backtracking attempt at every position of every text.
 */
import type { Anchor } from './anchor-scan.js'
import type { RuleSet, SecretFinding } from './finding.js'
import { NOT_A_SECRET, looksRandom } from './structural-rules.js'

const KEYWORD = /key|token|secret|pass|pwd|credential|auth/gi
const KEYWORDS = ['key', 'token', 'secret', 'pass', 'pwd', 'credential', 'auth'] as const
/** Name characters allowed before and after the keyword. */
const MAX_NAME_AFFIX = 64
/** The longest keyword (`credential`). */
const MAX_KEYWORD = 10
/** The longest value taken. */
const MAX_VALUE = 512

/** After a name: its closing quote, then `=`, `:`, `=>` or `:=` (not `==`, a comparison, nor `::`, a path). */
const SEPARATOR = /(?:\\{0,3}["'`])?[ \t]{0,8}(?:=>|:=|=(?!=)|:(?!:))[ \t]{0,8}/y
/** After a command-line option (`--password`): spaces, then a value that is not another option. */
const OPTION_SEPARATOR = /[ \t]+(?=[^\s-])/y
/** A value's opening quote, JSON-escaped up to twice (`\"`, `\\\"`). */
const OPENING_QUOTE = /\\{0,3}["'`]/y
/** Where an unquoted value ends: a space, a quote, an escape, or what ends an argument, a query or a list. */
const UNQUOTED_END = /[\s"'`\\,;&()[\]{}<>|]/

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

/** A `name = value` found: the name as written and where the value (quotes excluded) is. */
export interface Assignment {
  readonly name: string
  readonly start: number
  readonly end: number
  readonly value: string
  readonly quoted: boolean
}

/** The value at `at` (quoted or not), or undefined when there is none. */
function readValue(text: string, at: number): { start: number; end: number; quoted: boolean } | undefined {
  OPENING_QUOTE.lastIndex = at
  const quote = OPENING_QUOTE.exec(text)
  if (quote !== null) {
    const start = at + quote[0].length
    const close = quote[0]
    const limit = Math.min(text.length, start + MAX_VALUE)
    for (let i = start; i < limit; i++) {
      const char = text[i]
      if (char === '\n' || char === '\r') return undefined
      // A lone backslash escapes the next character, unless it starts the closing quote (`\"`).
      if (text.startsWith(close, i)) return i > start ? { start, end: i, quoted: true } : undefined
      if (char === '\\' && close.length === 1) i++
    }
    return undefined
  }
  let end = at
  const limit = Math.min(text.length, at + MAX_VALUE)
  while (end < limit && !UNQUOTED_END.test(text[end]!)) end++
  return end > at ? { start: at, end, quoted: false } : undefined
}

/** Every `name = value` in `text` whose name holds a keyword, non-overlapping, in order. */
export function assignedValues(text: string): Assignment[] {
  const out: Assignment[] = []
  // The run of name characters the last keyword was in: every keyword in one run shares its ends.
  let runFrom = -1
  let runEnd = -1
  let runStart = -1
  KEYWORD.lastIndex = 0
  for (let match = KEYWORD.exec(text); match !== null; match = KEYWORD.exec(text)) {
    const keywordEnd = match.index + match[0].length
    if (match.index >= runEnd || match.index < runFrom) {
      runFrom = match.index
      runEnd = keywordEnd
      while (runEnd < text.length && isNameChar(text.charCodeAt(runEnd))) runEnd++
      runStart = match.index
      const floor = Math.max(0, match.index - MAX_NAME_AFFIX)
      while (runStart > floor && isNameChar(text.charCodeAt(runStart - 1))) runStart--
      // A name right after a JSON escape (`…\nAPI_KEY=`, a file's lines in a JSON string) starts after it.
      if (runStart > 0 && text[runStart - 1] === '\\' && /[nrt]/.test(text[runStart]!)) runStart++
    }
    if (runEnd - keywordEnd > MAX_NAME_AFFIX) {
      // Too far from the name's end: only a keyword nearer the end can make this run a name.
      KEYWORD.lastIndex = Math.max(match.index + 1, runEnd - MAX_NAME_AFFIX - MAX_KEYWORD)
      continue
    }
    const name = text.slice(runStart, runEnd)
    SEPARATOR.lastIndex = runEnd
    let separator = SEPARATOR.exec(text)
    if (separator === null && name.startsWith('-')) {
      OPTION_SEPARATOR.lastIndex = runEnd
      separator = OPTION_SEPARATOR.exec(text)
    }
    const value = separator === null ? undefined : readValue(text, runEnd + separator[0].length)
    if (value === undefined) {
      // No separator and value after this run: no other keyword of it can do better.
      KEYWORD.lastIndex = runEnd
      continue
    }
    out.push({ name, ...value, value: text.slice(value.start, value.end) })
    KEYWORD.lastIndex = value.end
  }
  return out
}

/** A word of a name that says it holds a password or a secret. */
const PASSWORD_WORD = /(?:password|passwd|passphrase|secret)$|^(?:credentials?|secrets)$/
/** Short words that say so only at a name's end (`DB_PASS`, `smtp_pw`; not `passThrough`). */
const PASSWORD_LAST_WORD = /^(?:pwd|pass|pw)$/
/** One-word names of a key or token by what it is for (`APIKEY`, `authToken` split is `auth`, `token`). */
const KEY_COMPOUNDS = new Set(
  'apikey secretkey accesskey privatekey signingkey masterkey authkey appkey licensekey encryptionkey clientkey sessionkey serverkey webhookkey hmackey adminkey deploykey subscriptionkey accountkey sharedkey storagekey apitoken authtoken accesstoken refreshtoken bottoken idtoken sessiontoken bearertoken oauthtoken apisecret'.split(
    ' ',
  ),
)
/** Words before `key` that say it is a secret one (`api_key`, `x-api-key`, `SECRET_KEY_BASE`). */
const KEY_QUALIFIERS = new Set(
  'api access secret private client signing sign encryption encrypt enc master app consumer service account auth session webhook hmac jwt license admin deploy root ssh gpg pgp aes crypto cipher decryption shared psk bot subscription write storage server'.split(
    ' ',
  ),
)
/** Words before `token` that say it is no credential (token counts, pagination, a tokenizer's tokens). */
const TOKEN_NOT_SECRET = new Set(
  'max min num number total input output cache cached prompt completion reasoning page next prev previous continuation cancellation cancel sync eos bos pad unk sep mask cls special start end stop first last count new old current lexer parser parse design css theme color'.split(
    ' ',
  ),
)
/** A name's last word that says it holds something about the secret, not the secret. */
const ABOUT_THE_SECRET = new Set(
  'name names id ids path paths file files dir url uri arn type types length len count size env var field fields header prefix suffix hint label policy ref version ttl expiry expires expiration rotation manager store provider enabled required min max regex pattern format mode placeholder description desc help text title message error errors strength input class style icon button location source timeout changed at ms seconds hash hashed digest question reset confirm confirmation match valid validation validator visible visibility toggle dialog form modal page screen view component schema spec method methods algorithm alg kind scope scopes usage limit limits index idx list map set config settings options opts handler callback fn func tokens keys'.split(
    ' ',
  ),
)

function words(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}

/** How sure a name makes us that its value is a secret: `strong`, or `weak` (the value must look random). */
export function nameStrength(name: string): 'strong' | 'weak' {
  const all = words(name)
  const last = all.at(-1) ?? ''
  if (ABOUT_THE_SECRET.has(last)) return 'weak'
  // `SECRET_KEY_BASE`, `KEY_ID`… are about their other words: a trailing `base` does not hide the rest.
  if (PASSWORD_LAST_WORD.test(last)) return 'strong'
  if (all.some((word) => PASSWORD_WORD.test(word) || KEY_COMPOUNDS.has(word))) return 'strong'
  for (let i = 1; i < all.length; i++) {
    const [before, word] = [all[i - 1]!, all[i]!]
    if (word === 'key' && KEY_QUALIFIERS.has(before)) return 'strong'
    if (word === 'token' && !TOKEN_NOT_SECRET.has(before)) return 'strong'
  }
  return 'weak'
}

/** Values that hold no secret whatever their name: booleans, types, words standing for one. */
const NOT_A_VALUE =
  /^(?:true|false|null|none|nil|undefined|yes|no|on|off|auto|required|optional|string|str|bytes|int|number|bool|boolean|object|any|text|secret|password|passwd|token|key|hidden|redacted|masked|empty|default|env|prompt|stdin|file|[*x._-]+)$/i
/** An identifier, a member access or a call: a reference to a value, not one (`self.password`, `this.#pass`, `getpass()`). */
const REFERENCE = /^[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)#?[A-Za-z_$][\w$]*)+|^[A-Za-z_$][\w$]*\(/
/** A path or a URL: where a secret is kept, not the secret (URL credentials have their own rule). */
const LOCATION =
  /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/)|\.(?:pem|key|json|ya?ml|txt|env|p12|pfx|crt|der)$/i

/** A literal a strong name holds: anything but a placeholder, a reference, a type, a path or a label. */
export function isLiteralSecret(value: string, quoted: boolean): boolean {
  if (value.length < 4 || /\s/.test(value) || NOT_A_VALUE.test(value) || NOT_A_SECRET.test(value))
    return false
  if (LOCATION.test(value) || /^\d{1,7}$/.test(value)) return false
  if (quoted) {
    // A label or an option's name (`"current-password"`), an environment variable's name (`"DB_PASSWORD"`),
    // an identifier naming what it is (`"1password-token"`).
    return (
      !/^[a-z]+(?:[-_][a-z]+)*$/.test(value) &&
      !/^[A-Z]+(?:_[A-Z]+)*$/.test(value) &&
      !(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(value) && /password|secret|token|key/.test(value))
    )
  }
  // Unquoted: a type or an identifier (`password: string`) unless it has a digit (`hunter22`); an identifier
  // naming what it holds (`ArrowToken$1`, `apiKeyValue`) is a reference too.
  if (/^[A-Za-z_]+$/.test(value) || REFERENCE.test(value)) return false
  if (/^[A-Za-z_$][\w$]*$/.test(value) && /password|secret|token|key/i.test(value) && !looksRandom(value))
    return false
  return true
}

function kindOf(name: string): string {
  return words(name).some((word) => /pass|pwd|^pw$/.test(word)) ? 'password' : 'generic-secret'
}

function scanAssignments(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  if (!KEYWORDS.some((keyword) => hits.has(keyword))) return []
  const out: SecretFinding[] = []
  for (const { name, start, end, value, quoted } of assignedValues(text)) {
    if (nameStrength(name) === 'strong' ? isLiteralSecret(value, quoted) : looksRandomValue(value))
      out.push({ start, end, kind: kindOf(name) })
  }
  return out
}

/** A weak name's value: 16+ characters of the base64 and URL alphabet that look random. */
function looksRandomValue(value: string): boolean {
  return value.length >= 16 && /^[A-Za-z0-9+/=_\-.~]+$/.test(value) && looksRandom(value)
}

const ANCHORS: readonly Anchor[] = KEYWORDS.map((text) => ({ text, caseless: true }))

export const ASSIGNMENTS: RuleSet = { anchors: ANCHORS, scan: scanAssignments }
