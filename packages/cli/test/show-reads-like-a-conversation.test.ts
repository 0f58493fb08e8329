import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { pagerFor } from '../src/pager.js'
import { CLI_ARGS, packageDir, runCli } from './helpers/cli.js'

const ESC = String.fromCharCode(0x1b)

/** A Claude Code session: a prompt holding terminal escapes, a tool call and its result, an answer. */
function claudeSession(): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 'conv', version: '2.1.0' }
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'a1',
      parentUuid: null,
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { role: 'user', content: `list the files ${ESC}]0;pwned${ESC}\\ ${ESC}[31mred${ESC}[0m` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'a1',
      timestamp: '2026-11-01T10:00:01.000Z',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-x',
        content: [
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls -la /w', description: 'list' } },
        ],
        usage: { input_tokens: 5, output_tokens: 2 },
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'a3',
      parentUuid: 'a2',
      timestamp: '2026-11-01T10:00:02.000Z',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'total 8\nREADME.md\npackage.json' }],
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a4',
      parentUuid: 'a3',
      timestamp: '2026-11-01T10:00:03.000Z',
      message: {
        id: 'm2',
        role: 'assistant',
        model: 'claude-x',
        content: [{ type: 'text', text: 'There are two files.' }],
        usage: { input_tokens: 9, output_tokens: 4 },
      },
    },
  ]
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('')
}

/** Runs the CLI under util-linux `script`, so its output is a terminal, with `env` added. */
function underTerminal(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const command = [process.execPath, ...CLI_ARGS, ...args].map((part) => `'${part}'`).join(' ')
  return new Promise<string>((resolve, reject) => {
    execFile(
      'script',
      ['-qfec', command, '/dev/null'],
      { cwd: packageDir, env: { ...process.env, FORCE_COLOR: undefined, NO_COLOR: '1', ...env } },
      (error, stdout) =>
        error === null ? resolve(stdout) : reject(new Error(error.message, { cause: error })),
    )
  })
}

describe('show reads like a conversation', () => {
  it('prints roles, times, text and one-line tool summaries, not envelopes; --raw prints the records', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'conv.jsonl')
      await writeFile(file, claudeSession())
      const shown = await runCli('show', file)
      expect(shown.code).toBe(0)
      expect(shown.stdout).toContain('user · 2026-11-01 10:00:00Z')
      expect(shown.stdout).toContain('  → Bash ls -la /w {"description":"list"}\n')
      expect(shown.stdout).toMatch(/\n {2}← \d+ char\(s\): total 8\n/)
      expect(shown.stdout).toContain('assistant · 2026-11-01 10:00:03Z\nThere are two files.\n')
      expect(shown.stdout).not.toMatch(/isSidechain|userType|"message"|tool_use_id/)
      // Content's escapes are made visible, never sent.
      expect(shown.stdout).not.toContain(ESC)
      expect(shown.stdout).toContain('list the files ␛]0;pwned␛\\ ␛[31mred␛[0m')
      const raw = await runCli('show', '--raw', file)
      expect(raw.code).toBe(0)
      expect(raw.stdout).toMatch(/isSidechain/)
      expect(raw.stdout.split('\n').length).toBeGreaterThan(shown.stdout.split('\n').length)
      expect(raw.stdout).not.toContain(ESC)
    })
  })

  it('chooses a pager as git log does', () => {
    expect(pagerFor({}, true, false)).toBe('less')
    expect(pagerFor({ PAGER: 'most' }, true, false)).toBe('most')
    expect(pagerFor({ PAGER: 'most' }, false, false)).toBeUndefined()
    expect(pagerFor({ PAGER: 'most' }, true, true)).toBeUndefined()
    expect(pagerFor({ PAGER: 'cat' }, true, false)).toBeUndefined()
    expect(pagerFor({ PAGER: ' ' }, true, false)).toBeUndefined()
  })

  it('pages on a terminal through $PAGER, escapes still visible; --no-pager prints directly', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'conv.jsonl')
      const paged = path.join(dir, 'paged.txt')
      await writeFile(file, claudeSession())
      const direct = await underTerminal({ PAGER: `cat > '${paged}'` }, 'show', file)
      expect(direct).not.toContain('There are two files.')
      const text = await readFile(paged, 'utf8')
      expect(text).toContain('There are two files.')
      expect(text).toContain('␛[31mred')
      expect(text).not.toContain(ESC)
      const unpaged = path.join(dir, 'unpaged.txt')
      const printed = await underTerminal({ PAGER: `cat > '${unpaged}'` }, 'show', '--no-pager', file)
      expect(printed).toContain('There are two files.')
      await expect(readFile(unpaged)).rejects.toMatchObject({ code: 'ENOENT' })
    })
  })
})
