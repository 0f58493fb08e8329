import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliWith, runInProcess } from './helpers/cli.js'
import { makeRecord, withTempDir } from '../../recorder/test/helpers/records.js'

/** Escape sequences a hostile transcript could carry, each of which acts on a terminal if printed raw. */
const CORPUS = [
  '\u001b[2J\u001b[H', // clear screen, cursor home
  '\u001b]0;pwned\u0007', // OSC: retitle the window
  '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\', // OSC 8 hyperlink
  '\u001bP+q544e\u001b\\', // DCS
  '\u009b31m', // C1 CSI (one character)
  '\u009d0;title\u009c', // C1 OSC … ST
  '\u202eevil\u202c', // bidi override (Trojan Source)
  '\u2066isolate\u2069',
  'bell\u0007 backspace\b\b cr\r del\u007f nul\u0000',
]
const HOSTILE = CORPUS.join(' | ')

/** What must never reach a terminal raw: ESC, other C0 controls but \n and \t, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex -- the test is about control characters
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

async function hostileSession(dir: string): Promise<string> {
  const file = path.join(dir, 's1.jsonl')
  const records = [
    makeRecord(0, null, { type: 'title', title: HOSTILE }),
    makeRecord(1, 'u0', { text: HOSTILE, toolCall: { tool: HOSTILE, [HOSTILE]: HOSTILE } }),
    makeRecord(2, 'u1', { type: HOSTILE, text: undefined, output: HOSTILE }),
  ]
  // A parse-error excerpt quotes the damaged line: the damage holds the sequences too.
  // eslint-disable-next-line no-control-regex -- strips the controls JSON would escape, to keep them raw
  const damaged = `{"uuid":"x","text":"${HOSTILE.replace(/[\u0000-\u001f"\\]/g, '')}\u001b[2J`
  await writeFile(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n${damaged}\n${damaged}`)
  return file
}

describe('nothing the CLI prints can control the terminal', () => {
  // One test per command and colour setting. With FORCE_COLOR each runs as a real `sessiontape` process
  // (main.ts picks the colour style from the environment, our SGR sequences are added); without colour the
  // same command code runs in this process (runInProcess: the plain style), as a second child process per
  // command proved nothing more and cost a Node start with tsx each.
  let dir: string
  let file: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-terminal-safe-'))
    file = await hostileSession(dir)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const runs = [
    'show FILE',
    'show --tree FILE',
    'tail -n 10 FILE',
    'verify FILE',
    'list DIR',
    'repair --dry-run FILE',
  ]
  const cases = runs.flatMap((run) => [
    { run, colour: 'no colour, in this process', inProcess: true },
    { run, colour: 'FORCE_COLOR=1, a real process', inProcess: false },
  ])
  it.for(cases)(
    'escapes every control and bidi character in human output: sessiontape $run ($colour)',
    async ({ run, inProcess }) => {
      const args = run.split(' ').map((arg) => (arg === 'FILE' ? file : arg === 'DIR' ? dir : arg))
      const { stdout, stderr } = await (inProcess
        ? runInProcess(...args)
        : runCliWith({ env: { FORCE_COLOR: '1' } }, ...args))
      // Our own colour sequences are allowed, so strip exactly those before checking.
      // eslint-disable-next-line no-control-regex -- our own SGR colour sequences
      const ours = /\u001b\[(?:2|22|33|39|36|1)m/g
      expect(stdout.replace(ours, '')).not.toMatch(UNSAFE)
      expect(stderr.replace(ours, '')).not.toMatch(UNSAFE)
      if (run === 'show FILE') expect(stdout).toContain('␛[2J')
    },
  )

  it('keeps --json exact: the same data parses back, with no raw control character on the wire', async () => {
    await withTempDir(async (dir) => {
      const file = await hostileSession(dir)
      const shown = await runCliWith({}, 'show', '--json', file)
      expect(shown.stdout).not.toMatch(UNSAFE)
      const { records } = JSON.parse(shown.stdout) as { records: Array<Record<string, unknown>> }
      expect(records[1]).toMatchObject({ text: HOSTILE, toolCall: { tool: HOSTILE, [HOSTILE]: HOSTILE } })
      const tailed = await runCliWith({}, 'tail', '--json', file)
      expect(tailed.stdout + tailed.stderr).not.toMatch(UNSAFE)
      expect(
        tailed.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as object),
      ).toHaveLength(3)
      const verified = await runCliWith({}, 'verify', '--json', file)
      expect(verified.stdout).not.toMatch(UNSAFE)
      const listed = await runCliWith({}, 'list', '--json', dir)
      expect((JSON.parse(listed.stdout) as Array<{ title: string }>)[0]!.title).toBe(HOSTILE)
      expect(listed.stdout).not.toMatch(UNSAFE)
    })
  })
})
