/**
 * Credentials their context gives away, whatever their shape: an Authorization header's (`Bearer`, `Basic`,
 * `Token`, any scheme or none; `curl --oauth2-bearer`), a password in a URL (`scheme://user:pw@host`, the
 * user may be empty: `redis://:pw@host`), on a command line (`curl -u user:pw`, `mysql -pPW`,
 * `sshpass -p PW`, `docker login -p PW`) and in a `.netrc` line (`machine h login u password pw`).
 * (`--password=…`, `--password …`, `PGPASSWORD=…` are named values: assignments.ts.)
 */
import type { Anchor } from './anchor-scan.js'
import type { RuleSet, SecretFinding } from './finding.js'
import { NOT_A_SECRET } from './structural-rules.js'

/** What follows `Authorization`: a separator, then a scheme and the credentials, or the credentials alone. */
const AUTHORIZATION =
  /authorization\\{0,3}["'`]?[ \t]{0,4}[:=][ \t]{0,4}\\{0,3}["'`]?[ \t]{0,4}(?:(?<scheme>[A-Za-z][A-Za-z0-9-]{1,24})[ \t]+)?(?<credentials>[A-Za-z0-9._~+/=-]{1,4096})/gi
/** `Bearer <token>` anywhere (a header split over arguments, `--oauth2-bearer`). */
const BEARER = /\b(?:Bearer|bearer|BEARER)[ \t]+(?<credentials>[A-Za-z0-9._~+/=-]{8,4096})/g

/** A credential, not a word: a digit and a letter, or 20+ characters of both cases; never a placeholder. */
function isCredential(value: string, scheme: string | undefined): boolean {
  if (NOT_A_SECRET.test(value)) return false
  if (scheme?.toLowerCase() === 'basic' && /^[A-Za-z0-9+/]{4,}={0,2}$/.test(value)) {
    // Basic credentials are base64 of `user:password`.
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    if (decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded)) return true
  }
  if (value.length >= 8 && /[0-9]/.test(value) && /[A-Za-z]/.test(value)) return true
  return value.length >= 20 && /[a-z]/.test(value) && /[A-Z]/.test(value)
}

/** `scheme://user:password@host`, for any scheme; the user may be empty. The password is redacted. */
const URL_CREDENTIAL =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]{0,100}:(?<password>[^\s@/'"\\]{1,200})@[^\s/'"@]/gi

/**
 * Commands whose options carry a password, and where a command's arguments end (a shell's `;`, `&&`, `|`,
 * a line break, written or JSON-escaped).
 */
const COMMAND =
  /\b(?:curl|curlie|wget|https?|mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|sshpass|redis-cli|docker|podman|nerdctl|helm)\b/g
const ARGUMENTS_END = /[;|&\r\n]|\\n/g
/** The most characters of one command's arguments searched. */
const MAX_ARGUMENTS = 4096

/** `-u user:pw` and its kin (curl, wget, HTTPie): the password is redacted; `-u 1000:1000` is a uid:gid. */
const USER_OPTION =
  /(?<![\w-])(?:-u|--user|--proxy-user|--http-user|-a|--auth)(?:[ \t]+|=)?\\{0,3}["']?[^\s:'"\\]{0,100}:(?<password>[^\s'"\\]{1,200})/g
/** mysql's `-pPASSWORD` (attached: `-p PW` would ask, and PW is the database). */
const ATTACHED_P = /(?<![\w-])-p\\{0,3}["']?(?<password>[^\s'"\\-][^\s'"\\]{2,200})/g
/** sshpass's `-p PW`, and `docker login -p PW`. */
const SPACED_P = /(?<![\w-])-p[ \t]*\\{0,3}["']?(?<password>[^\s'"\\-][^\s'"\\]{2,200})/g
/** redis-cli's `-a PW`. */
const SPACED_A = /(?<![\w-])-a[ \t]+\\{0,3}["']?(?<password>[^\s'"\\-][^\s'"\\]{2,200})/g
/** OpenSSL's `-passin pass:PW`, `-passout pass:PW`, `-pass pass:PW`. */
const OPENSSL_PASS = /(?<![\w-])-pass(?:in|out)?[ \t]+\\{0,3}["']?pass:(?<password>[^\s'"\\]{1,200})/g
/** `.netrc`: `login <user> password <password>`. */
const NETRC = /\blogin[ \t]+\S{1,100}[ \t]+password[ \t]+(?<password>\S{1,200})/g

function isPassword(value: string): boolean {
  return !NOT_A_SECRET.test(value) && !/^\d+$/.test(value)
}

function optionPasswords(
  text: string,
  from: number,
  to: number,
  pattern: RegExp,
  out: SecretFinding[],
): void {
  pattern.lastIndex = from
  for (let m = pattern.exec(text); m !== null && m.index < to; m = pattern.exec(text)) {
    const password = m.groups?.password ?? ''
    const end = m.index + m[0].length
    if (end <= to && isPassword(password))
      out.push({ start: end - password.length, end, kind: 'command-line-password' })
  }
}

function scanCommands(text: string, out: SecretFinding[]): void {
  COMMAND.lastIndex = 0
  let searched = 0
  for (let command = COMMAND.exec(text); command !== null; command = COMMAND.exec(text)) {
    const from = Math.max(searched, command.index + command[0].length)
    ARGUMENTS_END.lastIndex = from
    const end = ARGUMENTS_END.exec(text)
    const to = Math.min(end === null ? text.length : end.index, from + MAX_ARGUMENTS)
    const name = command[0]
    if (name === 'mysql' || name.startsWith('mysql') || name.startsWith('mariadb'))
      optionPasswords(text, from, to, ATTACHED_P, out)
    else if (name === 'sshpass') optionPasswords(text, from, to, SPACED_P, out)
    else if (name === 'redis-cli') optionPasswords(text, from, to, SPACED_A, out)
    else if (['docker', 'podman', 'nerdctl', 'helm'].includes(name)) {
      if (/\blogin\b/.test(text.slice(from, to))) optionPasswords(text, from, to, SPACED_P, out)
    } else optionPasswords(text, from, to, USER_OPTION, out)
    // Arguments are searched once, however many command names they hold (`curl https://…`).
    searched = Math.max(searched, to)
    COMMAND.lastIndex = Math.max(COMMAND.lastIndex, from)
  }
}

function scanContexts(text: string, hits: ReadonlySet<string>): SecretFinding[] {
  const out: SecretFinding[] = []
  if (hits.has('authorization'))
    for (const m of text.matchAll(AUTHORIZATION)) {
      const credentials = m.groups?.credentials ?? ''
      if (isCredential(credentials, m.groups?.scheme)) {
        const end = m.index + m[0].length
        out.push({ start: end - credentials.length, end, kind: 'authorization' })
      }
    }
  if (hits.has('bearer'))
    for (const m of text.matchAll(BEARER)) {
      const credentials = m.groups?.credentials ?? ''
      if (isCredential(credentials, 'bearer')) {
        const end = m.index + m[0].length
        out.push({ start: end - credentials.length, end, kind: 'authorization' })
      }
    }
  if (hits.has('://'))
    for (const m of text.matchAll(URL_CREDENTIAL)) {
      const password = m.groups?.password ?? ''
      // A documentation example (`user:pass@localhost`) names the field instead of filling it.
      if (NOT_A_SECRET.test(password) || /^(?:pass(?:word)?|passwd|pwd|secret)$/i.test(password)) continue
      // The password ends right before the '@' that the match's last two characters are.
      const end = m.index + m[0].length - 2
      out.push({ start: end - password.length, end, kind: 'connection-string' })
    }
  if (COMMAND_ANCHORS.some((anchor) => hits.has(anchor))) scanCommands(text, out)
  if (hits.has('login')) optionPasswords(text, 0, text.length, NETRC, out)
  if (hits.has('pass:')) optionPasswords(text, 0, text.length, OPENSSL_PASS, out)
  return out
}

const COMMAND_ANCHORS = [
  'curl',
  'wget',
  'http',
  'mysql',
  'mariadb',
  'sshpass',
  'redis-cli',
  'docker',
  'podman',
  'nerdctl',
  'helm',
]

const ANCHORS: readonly Anchor[] = [
  { text: 'authorization', caseless: true },
  { text: 'bearer', caseless: true },
  { text: '://' },
  { text: 'login' },
  { text: 'pass:' },
  ...COMMAND_ANCHORS.map((text) => ({ text })),
]

export const CONTEXTS: RuleSet = { anchors: ANCHORS, scan: scanContexts }
