import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

const ID = 'bbbbbbbb-0000-4000-8000-000000000001'
const CWD = '/home/dev/app'

function claudeSession(userText: string): string {
  const envelope = { isSidechain: false, userType: 'external', cwd: CWD, sessionId: ID, version: '2.1.3' }
  return [
    {
      ...envelope,
      parentUuid: null,
      type: 'user',
      uuid: 'u-1',
      timestamp: '2026-03-01T10:00:00.000Z',
      message: { role: 'user', content: userText },
    },
    {
      ...envelope,
      parentUuid: 'u-1',
      type: 'assistant',
      uuid: 'a-1',
      timestamp: '2026-03-01T10:00:05.000Z',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Looking at it.' }],
        usage: { input_tokens: 10, output_tokens: 2 },
      },
    },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('')
}

describe('sessiontape search: exit codes, JSON, terminal-safe snippets', () => {
  let saved: string | undefined
  beforeEach(() => {
    saved = process.env.SESSIONTAPE_CACHE_DIR
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.SESSIONTAPE_CACHE_DIR
    else process.env.SESSIONTAPE_CACHE_DIR = saved
  })

  it('0 with hits, 1 with none, 2 for a bad command line or a missing directory', async () => {
    await withTempDir(async (root) => {
      process.env.SESSIONTAPE_CACHE_DIR = path.join(root, 'cache')
      const project = path.join(root, 'projects', '-home-dev-app')
      await mkdir(project, { recursive: true })
      await writeFile(path.join(project, `${ID}.jsonl`), claudeSession('the \u001b[2Jpelican\u0007 bug'))
      const projects = path.join(root, 'projects')

      const found = await runInProcess('search', 'pelican', projects)
      expect(found.code).toBe(0)
      expect(found.stdout).toContain(`2026-03-01 10:00:00Z  claude-code  ${ID}  user  line 1\n`)
      // The ESC and BEL of the transcript are shown, not acted on.
      expect(found.stdout).toContain('    the ␛[2Jpelican␇ bug\n')
      // eslint-disable-next-line no-control-regex -- asserting that no control character is printed
      expect(found.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/)
      expect(found.stdout).toContain('1 hit(s) in 1 session(s) (1 searched)\n')

      const json = await runInProcess('search', 'pelican', projects, '--json')
      expect(json.code).toBe(0)
      expect(json.stdout).not.toContain('\u001b')
      expect(JSON.parse(json.stdout)).toEqual({
        total: 1,
        truncated: false,
        unsearched: [],
        hits: [
          {
            file: path.join(project, `${ID}.jsonl`),
            sessionId: ID,
            format: 'claude-code',
            agent: 'claude-code',
            uuid: 'u-1',
            eventId: 'u-1',
            line: 1,
            role: 'user',
            timestamp: '2026-03-01T10:00:00.000Z',
            snippet: 'the \u001b[2Jpelican\u0007 bug',
            cwd: CWD,
          },
        ],
      })

      expect(await runInProcess('search', 'albatross', projects)).toMatchObject({
        code: 1,
        stdout: 'No hits in 1 session(s)\n',
      })
      expect(JSON.parse((await runInProcess('search', 'albatross', projects, '--json')).stdout)).toEqual({
        total: 0,
        truncated: false,
        unsearched: [],
        hits: [],
      })

      for (const args of [
        ['search'],
        ['search', 'pelican', path.join(root, 'missing')],
        ['search', 'pelican', projects, '--limit', '0'],
        ['search', 'pelican', projects, '--role', 'robot'],
        ['search', 'pelican', projects, '--agent', 'vim'],
        ['search', 'pelican', projects, '--since', 'yesterday-ish'],
        ['search', 'pelican', projects, '--colour'],
      ]) {
        const result = await runInProcess(...args)
        expect(result.code, args.join(' ')).toBe(2)
        expect(result.stderr).toMatch(/^sessiontape search: /)
      }
      const failed = await runInProcess('search', 'pelican', projects, '--limit', 'x', '--json')
      expect(JSON.parse(failed.stdout) as unknown).toMatchObject({
        error: { code: 'ERR_USAGE', exitCode: 2 },
      })
    })
  })

  it('list --json of several directories adds agent, project, turns, models, usage and size', async () => {
    await withTempDir(async (root) => {
      process.env.SESSIONTAPE_CACHE_DIR = path.join(root, 'cache')
      const project = path.join(root, 'projects', '-home-dev-app')
      await mkdir(project, { recursive: true })
      await writeFile(path.join(project, `${ID}.jsonl`), claudeSession('hello'))
      const empty = path.join(root, 'empty')
      await mkdir(empty)
      const listed = await runInProcess('list', '--json', path.join(root, 'projects'), empty)
      expect(listed.code).toBe(0)
      expect(JSON.parse(listed.stdout)).toEqual([
        {
          sessionId: ID,
          filePath: path.join(project, `${ID}.jsonl`),
          createdAt: '2026-03-01T10:00:00.000Z',
          updatedAt: '2026-03-01T10:00:05.000Z',
          recordCount: 2,
          lastUuid: 'a-1',
          format: 'claude-code',
          source: 'rebuilt',
          agent: 'claude-code',
          cwd: CWD,
          turnCount: 1,
          models: ['claude-sonnet-4-5'],
          usage: {
            inputTokens: 10,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            outputTokens: 2,
            reasoningOutputTokens: 0,
            totalTokens: 12,
          },
          sizeBytes: claudeSession('hello').length,
        },
      ])
      expect((await runInProcess('list', path.join(root, 'missing'))).code).toBe(2)
    })
  })
})
