/**
 * `--redact` holds: a real-format session (Claude Code's JSONL) with 200+ planted secrets of 30+ kinds, in
 * user and assistant text, tool inputs (commands, files written) and tool outputs (files read), exported by
 * the library and by the `sessiontape` CLI in a child process, keeps none of them; and no look-alike (SHAs,
 * UUIDs, hashes, integrity strings, public keys, a certificate) nor any real sample session changes.
 * Private keys are generated now by openssl, ssh-keygen and gpg, in every form a transcript shows them.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { Redactor, exportSession } from '../src/index.js'
import { LOOK_ALIKES } from './fixtures/look-alikes.js'
import {
  TOKEN_MAKERS,
  generateKeys,
  keyForms,
  plantedTokens,
  type GeneratedKey,
  type Planted,
} from './fixtures/planted-secrets.js'
import { SAMPLES, samplesOf } from './helpers/samples.js'

const REPO = path.resolve(import.meta.dirname, '../../..')
const CLI = ['--conditions=@sessiontape/source', '--import', 'tsx', 'packages/cli/src/main.ts']

/** Claude Code lines, chained by parentUuid: the format as Claude Code writes it. */
class Session {
  lines: string[] = []
  #n = 0
  #parent: string | null = null
  #line(type: 'user' | 'assistant', content: unknown): void {
    const uuid = `00000000-0000-4000-8000-${String(++this.#n).padStart(12, '0')}`
    const message =
      type === 'user'
        ? { role: 'user', content }
        : { id: `msg_${this.#n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content }
    this.lines.push(
      JSON.stringify({
        parentUuid: this.#parent,
        isSidechain: false,
        userType: 'external',
        cwd: '/home/dev/app',
        sessionId: 'planted-0000-4000-8000-000000000001',
        version: '2.0.14',
        gitBranch: 'main',
        type,
        message,
        uuid,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.#n)).toISOString(),
      }),
    )
    this.#parent = uuid
  }
  /** `text` where a session holds text: 0 the user's, 1 the assistant's, 2 a tool's input, 3 its output. */
  put(text: string, where: number): void {
    const id = `toolu_${this.#n}`
    if (where === 0) this.#line('user', text)
    else if (where === 1) this.#line('assistant', [{ type: 'text', text }])
    else if (where === 2) {
      const input = this.#n % 2 === 0 ? { command: text } : { file_path: '/home/dev/app/.env', content: text }
      this.#line('assistant', [{ type: 'tool_use', id, name: 'command' in input ? 'Bash' : 'Write', input }])
      this.#line('user', [{ type: 'tool_result', tool_use_id: id, content: 'ok' }])
    } else {
      this.#line('assistant', [{ type: 'tool_use', id, name: 'Read', input: { file_path: '/etc/app.conf' } }])
      this.#line('user', [{ type: 'tool_result', tool_use_id: id, content: text }])
    }
  }
  write(dir: string, name: string): string {
    const file = path.join(dir, name)
    writeFileSync(file, this.lines.join('\n') + '\n')
    return file
  }
}

/** Unescapes what an HTML export's JSON islands escape (`<`, `&`…), so a secret is found as written. */
function unescapeIslands(page: string): string {
  return page.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** The planted secrets whose pieces are still in `output` (a piece: 16-character windows of each needle). */
function survivors(output: string, planted: readonly Planted[]): string[] {
  const WINDOW = 16
  const windows = new Set<string>()
  for (let i = 0; i + WINDOW <= output.length; i++) windows.add(output.slice(i, i + WINDOW))
  const out: string[] = []
  for (const { kind, needles } of planted)
    for (const needle of needles) {
      const left =
        needle.length < WINDOW
          ? output.includes(needle)
          : Array.from({ length: needle.length - WINDOW + 1 }, (_, i) => needle.slice(i, i + WINDOW)).some(
              (piece) => windows.has(piece),
            )
      if (left) out.push(`${kind}: ${needle.slice(0, 40)}`)
    }
  return out
}

const run = promisify(execFile)

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [...CLI, ...args], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 })
}

/** A Markdown export without its footer's redaction line (the only line --redact adds when nothing is found). */
function withoutRedactionLine(markdown: string): string {
  return markdown.replace(/^- Redacted: .*\n/m, '')
}

let keys: GeneratedKey[] = []
let toolPresent: Readonly<Record<string, boolean>> = {}
let publics: string[] = []
let planted: Planted[] = []
let dir = ''
let secretsFile = ''
let lookAlikesFile = ''

beforeAll(() => {
  const generated = generateKeys(5)
  // Only a tool that is truly absent leaves its kinds out, said here (CI installs them: see the README).
  for (const reason of generated.skipped) console.warn(`skipped: ${reason}`)
  toolPresent = generated.tools
  keys = generated.keys
  publics = generated.publics
  // Every key kind in every form (as written, JSON-escaped once and twice, a list of lines, split in two).
  planted = [...keys.flatMap((key, i) => keyForms(key, i)), ...plantedTokens(TOKEN_MAKERS.length * 4, 43)]
  dir = mkdtempSync(path.join(tmpdir(), 'st-planted-'))
  const session = new Session()
  planted.forEach((p, i) => {
    session.put(p.text, i % 4)
    session.put(LOOK_ALIKES[i % LOOK_ALIKES.length]!, (i + 1) % 4)
  })
  secretsFile = session.write(dir, 'secrets.jsonl')
  const benign = new Session()
  ;[...LOOK_ALIKES, ...publics].forEach((text, i) => benign.put(text, i % 4))
  LOOK_ALIKES.forEach((text, i) => benign.put(LOOK_ALIKES.slice(0, i + 1).join('\n'), (i + 2) % 4))
  lookAlikesFile = benign.write(dir, 'look-alikes.jsonl')
}, 120_000)

// Generous: the CLI runs three times in child processes on a machine other tests share.
describe('redaction holds on planted secrets', { timeout: 180_000 }, () => {
  it('plants 200+ secrets of 30+ kinds, keys of every algorithm from the system tools', () => {
    const kinds = new Set(planted.map((p) => p.kind.replace(/-(first|second)-half$/, '')))
    console.log(`planted ${planted.length} secrets of ${kinds.size} kinds: ${[...kinds].join(', ')}`)
    expect(planted.length).toBeGreaterThanOrEqual(200)
    expect(kinds.size).toBeGreaterThanOrEqual(30)
    // Every key kind its tool can make is there; a tool that is absent was named when the keys were made.
    const keyKinds = new Set(keys.map((k) => k.kind))
    const expected: Record<string, readonly string[]> = {
      openssl: ['ec-p256-sec1', 'ec-p384-sec1', 'ed25519-pkcs8', 'ed448-pkcs8', 'rsa-pkcs1', 'dsa-pkcs8'],
      'ssh-keygen': ['openssh-ed25519', 'openssh-ecdsa', 'openssh-rsa'],
      gpg: ['pgp-secret-key'],
    }
    for (const [tool, toolKinds] of Object.entries(expected)) {
      if (!toolPresent[tool]) continue
      for (const kind of toolKinds) expect(keyKinds.has(kind), `${tool} made no ${kind}`).toBe(true)
    }
  })

  it('leaves no piece of any planted secret in each text redacted alone', () => {
    const redactor = new Redactor()
    const left = planted.flatMap((p) => survivors(redactor.redactText(p.text), [p]))
    expect(left).toEqual([])
  })

  it('leaves none in a Markdown or HTML export of the session, and counts them', async () => {
    for (const format of ['md', 'html'] as const) {
      const result = await exportSession(secretsFile, { format, redact: true })
      const output = format === 'html' ? unescapeIslands(result.text!) : result.text!
      expect(survivors(output, planted), format).toEqual([])
      expect(result.redaction!.total).toBeGreaterThanOrEqual(planted.length)
    }
  })

  it('leaves none in what `sessiontape export --redact` prints, run as a child process', async () => {
    for (const format of ['md', 'html']) {
      const { stdout, stderr } = await cli('export', secretsFile, '--redact', '--format', format)
      const output = format === 'html' ? unescapeIslands(stdout) : stdout
      expect(survivors(output, planted), format).toEqual([])
      expect(stderr).toMatch(/\d+ secrets redacted \(/)
    }
    // Without --redact the same secrets are all there: the check above can fail.
    const { stdout } = await cli('export', secretsFile, '--format', 'md')
    expect(survivors(stdout, planted).length).toBeGreaterThan(planted.length / 2)
  })

  it('changes no look-alike, public key or certificate', async () => {
    const redactor = new Redactor()
    for (const text of [...LOOK_ALIKES, ...publics]) expect(redactor.redactText(text)).toBe(text)
    expect(redactor.report().total).toBe(0)
    const plain = await exportSession(lookAlikesFile, { format: 'md' })
    const redacted = await exportSession(lookAlikesFile, { format: 'md', redact: true })
    expect(redacted.redaction).toEqual({ total: 0, byKind: {} })
    expect(withoutRedactionLine(redacted.text!)).toBe(plain.text)
  })

  it('changes nothing in the real sample sessions', async (context) => {
    const files = [
      'claude-code',
      'codex-cli',
      'copilot-cli',
      'cursor-cli',
      'gemini-cli',
      'qwen-code',
    ].flatMap(samplesOf)
    if (files.length === 0) context.skip(`no samples at ${SAMPLES}`)
    const redacted: string[] = []
    for (const file of files) {
      const plain = await exportSession(file, { format: 'md' })
      const result = await exportSession(file, { format: 'md', redact: true })
      if (result.redaction!.total > 0)
        redacted.push(`${path.relative(SAMPLES, file)}: ${JSON.stringify(result.redaction)}`)
      else expect(withoutRedactionLine(result.text!), file).toBe(plain.text)
    }
    // The samples hold no real secret: nothing may be redacted in them.
    expect(redacted).toEqual([])
  })
})
