import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { OPENCODE_SCHEMA, openCodeSessionSql } from '../../sessions/test/fixtures/opencode-db.js'

let dir: string
let file: string

/** Names, sizes and mtimes beside the database: no command may add or change one. */
function filesOf(): string[] {
  return readdirSync(dir).map((name) => {
    const stat = statSync(path.join(dir, name), { bigint: true })
    return `${name}:${stat.size}:${stat.mtimeNs}`
  })
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'opencode-cli-'))
  file = path.join(dir, 'opencode.db')
  // The second session stays in the -wal file: the shell is killed before it can checkpoint.
  const made = spawnSync('sqlite3', [file], {
    input: `PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;\n${OPENCODE_SCHEMA}\n${openCodeSessionSql('ses_1', '/w/one')}\n${openCodeSessionSql('ses_2', '/w/two', { prompt: 'Say \u001b[31mhello' })}\n.shell kill -9 $PPID\n`,
  })
  expect(made.signal).toBe('SIGKILL')
  expect(statSync(`${file}-wal`).size).toBeGreaterThan(0)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('sessiontape reads an OpenCode opencode.db with show and usage; verify and repair refuse it', () => {
  it('show prints every session with its prompt, tool call, result and answer, escapes included', async () => {
    const before = filesOf()
    const { code, stdout, stderr } = await runCli('show', file)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain('opencode · 2 session(s)')
    expect(stdout).toContain('session ses_1 · Listing the files · /w/one · opencode 1.18.33')
    expect(stdout).toContain('user: List the files in this directory.')
    expect(stdout).toContain('tool-call bash {"command":"ls"}')
    expect(stdout).toContain('tool-result: hello.py\nnotes.txt\n')
    expect(stdout).toContain('assistant: There are two files: hello.py and notes.txt.')
    expect(stdout).toContain('user: Say \u241b[31mhello')
    expect(stdout).not.toContain('\u001b')
    expect(filesOf()).toEqual(before)
  })

  it('show <db>#<session> prints that session only, --json its events', async () => {
    const { code, stdout } = await runCli('show', '--json', `${file}#ses_2`)
    expect(code).toBe(0)
    const shown = JSON.parse(stdout) as { sessions: { sessionId: string; events: { kind: string }[] }[] }
    expect(shown.sessions.map((s) => s.sessionId)).toEqual(['ses_2'])
    expect(shown.sessions[0]!.events.map((e) => e.kind)).toContain('tool-result')
    const missing = await runCli('show', `${file}#ses_none`)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no session "ses_none"')
  })

  it('usage counts each model request (step-finish) and agrees with the session row', async () => {
    const { code, stdout, stderr } = await runCli('usage', '--json', file)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const usage = JSON.parse(stdout) as {
      sessions: {
        sessionId: string
        requests: number
        inputTokens: number
        outputTokens: number
        agreesWithAgentTotal: boolean
      }[]
      totals: { requests: number; inputTokens: number; outputTokens: number }
    }
    // Per session: input 900+100 + 40+1000+8, output 30+12 + 25 (the fixture's two step-finish parts).
    expect(
      usage.sessions.map((s) => [
        s.sessionId,
        s.requests,
        s.inputTokens,
        s.outputTokens,
        s.agreesWithAgentTotal,
      ]),
    ).toEqual([
      ['ses_1', 2, 2048, 67, true],
      ['ses_2', 2, 2048, 67, true],
    ])
    expect(usage.totals).toMatchObject({ requests: 4, inputTokens: 4096, outputTokens: 134 })
  })

  for (const [command, exit] of [
    ['verify', 2],
    ['repair', 3],
  ] as const) {
    it(`${command} says it is not a JSONL transcript (exit ${exit}) and leaves it untouched`, async () => {
      const before = filesOf()
      const { code, stdout, stderr } = await runCli(command, file)
      expect({ code, stdout }).toEqual({ code: exit, stdout: '' })
      expect(stderr).toContain("is a SQLite database (OpenCode's opencode.db), not a JSONL transcript")
      expect(filesOf()).toEqual(before)
    })
  }
})

describe('sessiontape export renders one OpenCode session as it renders any agent', () => {
  it('names the sessions when the store holds several (exit 2), exports <db>#<session> as Markdown', async () => {
    const several = await runCli('export', '--format', 'md', file)
    expect(several.code).toBe(2)
    expect(several.stderr).toContain(`${file}#ses_1`)
    expect(several.stderr).toContain(`${file}#ses_2`)
    const { code, stdout, stderr } = await runCli('export', '--format', 'md', `${file}#ses_1`)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain('List the files in this directory.')
    expect(stdout).toContain('There are two files: hello.py and notes.txt.')
    expect(stdout).toContain('bash')
  })
})
