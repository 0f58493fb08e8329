import { cp, readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

const FIXTURES = path.join(import.meta.dirname, '../../recorder/test/fixtures/formats')
const SESSION = '0b7e4a52-9c1d-4f3e-8a6b-2d5c7e9f1a30'

/** Every file under `dir` with its bytes and mtime: a command that writes anything changes this. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, name)
    const info = await stat(file)
    out[name] = info.isFile() ? `${info.mtimeMs} ${(await readFile(file)).toString('base64')}` : 'dir'
  }
  return out
}

describe('the CLI inspects Claude Code, Qwen Code and Gemini CLI sessions', () => {
  it('list, verify, show and tail work on the agents’ directories and write nothing', async () => {
    await withTempDir(async (home) => {
      // The agents' layouts: ~/.claude/projects/<project>/, ~/.gemini/tmp/<hash>/chats/.
      const projects = path.join(home, '.claude', 'projects')
      const project = path.join(projects, '-home-dev-app')
      await cp(path.join(FIXTURES, 'claude-project'), project, { recursive: true })
      const chats = path.join(home, '.gemini', 'tmp', '3f1a2b', 'chats')
      await cp(path.join(FIXTURES, 'gemini-chats'), chats, { recursive: true })
      const transcript = path.join(project, `${SESSION}.jsonl`)
      const before = await snapshot(home)

      const listed = await runCli('list', projects) // one real process; the rest run in this one (same code)
      expect(listed.code).toBe(0)
      expect(listed.stdout).toMatch(new RegExp(`${SESSION}\\s+claude-code\\s+Fix the flaky tests`))
      expect(listed.stdout).toContain('1 subagent transcript(s)')
      const json = await runInProcess('list', '--json', project)
      expect(JSON.parse(json.stdout)).toEqual([
        expect.objectContaining({ sessionId: SESSION, format: 'claude-code', recordCount: 12 }),
      ])
      const gemini = await runInProcess('list', path.join(home, '.gemini', 'tmp'))
      expect(gemini.stdout).toMatch(/gemini-cli\s+Listing files/)
      expect(gemini.stdout).toMatch(/gemini-json\s+Old style session/)

      const verified = await runInProcess('verify', transcript)
      expect(verified).toMatchObject({ code: 0 })
      expect(verified.stdout).toContain('(claude-code, 5 metadata line(s)): 12 record(s), no problems')
      expect(verified.stdout).toContain('earlier session')

      const shown = await runInProcess('show', '--raw', transcript)
      expect(shown.code).toBe(0)
      expect(shown.stdout).toContain('claude-code · session 0b7e4a52')
      expect(shown.stdout).toContain('8 record(s) on the active branch of 12')
      expect(shown.stdout).toContain('Conversation compacted')
      expect(shown.stdout).toContain('Docs updated.')
      expect(shown.stdout).not.toContain('Abandoned answer.')
      expect(shown.stdout).not.toContain('Found 3 files.')

      const tailed = await runInProcess('tail', '-n', '2', transcript)
      expect(tailed.code).toBe(0)
      expect(tailed.stdout.trimEnd().split('\n').at(-1)).toMatch(/^17: .* assistant: Docs updated\./)

      const replayed = await runInProcess(
        'show',
        '--raw',
        path.join(chats, 'session-2026-05-01T09-00-c4e2a9f1.jsonl'),
      )
      expect(replayed.stdout).toContain('gemini-cli')
      expect(replayed.stdout).toContain('4 record(s) on the active branch of 4')
      expect(replayed.stdout).not.toContain('delete them all')

      const document = path.join(chats, 'session-2026-04-20T12-00-9a8b7c6d.json')
      expect(await runInProcess('verify', document)).toMatchObject({ code: 0 })
      const notLines = await runInProcess('tail', document)
      expect(notLines.code).toBe(2)
      expect(notLines.stderr).toContain('use: sessiontape show')

      expect(await snapshot(home)).toEqual(before)
    })
  })

  it('--format overrides the recognised format; an unknown one is a usage error', async () => {
    const transcript = path.join(FIXTURES, 'claude-project', `${SESSION}.jsonl`)
    const asOurs = await runInProcess('verify', '--format', 'sessiontape', transcript)
    expect(asOurs.code).toBe(1)
    expect(asOurs.stdout).toContain('missing-envelope')
    const wrong = await runInProcess('verify', '--format', 'claude', transcript)
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('unknown --format "claude"')
  })
})
