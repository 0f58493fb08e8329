import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { searchSessions, type SearchOptions } from '../src/index.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

describe('search filters: agent, project, date range, role, limit', () => {
  it('each filter keeps exactly the hits it names', async () => {
    await withTemp(async (root) => {
      const claude = path.join(root, 'claude')
      const qwenLike = path.join(root, 'other')
      await writeClaudeSession(claude, 'aaaaaaaa-0000-4000-8000-000000000001', '/work/shop', [
        {
          user: 'the zircon cache is slow',
          thinking: 'zircon again',
          assistant: 'I will look at zircon',
          tool: { name: 'Bash', input: { command: 'grep zircon src' }, output: 'src/zircon.ts:1' },
          at: '2026-02-01T10:00:00.000Z',
        },
      ])
      await writeClaudeSession(claude, 'aaaaaaaa-0000-4000-8000-000000000002', '/work/blog', [
        { user: 'zircon in the blog', assistant: 'fine', at: '2026-03-05T10:00:00.000Z' },
      ])
      await writeClaudeSession(qwenLike, 'aaaaaaaa-0000-4000-8000-000000000003', '/work/shop', [
        { user: 'no match here', assistant: 'none', at: '2026-03-06T10:00:00.000Z' },
      ])
      const base = { dirs: [claude, qwenLike], cacheDir: path.join(root, 'cache') }
      const find = async (options: Omit<SearchOptions, 'dirs' | 'cacheDir'> = {}) =>
        (await searchSessions('zircon', { ...base, ...options })).hits.map(
          (hit) => `${hit.sessionId.slice(-1)} ${hit.role}`,
        )

      // Newest session first; in a session, user and assistant text before thinking and tool text.
      expect(await find()).toEqual([
        '2 user',
        '1 user',
        '1 assistant',
        '1 thinking',
        '1 tool-call',
        '1 tool-result',
      ])
      expect(await find({ project: 'shop' })).toEqual([
        '1 user',
        '1 assistant',
        '1 thinking',
        '1 tool-call',
        '1 tool-result',
      ])
      expect(await find({ role: 'tool' })).toEqual(['1 tool-call', '1 tool-result'])
      expect(await find({ role: ['user', 'thinking'] })).toEqual(['2 user', '1 user', '1 thinking'])
      expect(await find({ since: new Date('2026-03-01T00:00:00Z') })).toEqual(['2 user'])
      expect(await find({ until: new Date('2026-02-28T00:00:00Z') })).toHaveLength(5)
      expect(await find({ agent: 'gemini-cli' })).toEqual([])
      expect(await find({ agent: ['claude-code'], limit: 2 })).toEqual(['2 user', '1 user'])
      expect(await find({ perSession: 1 })).toEqual(['2 user', '1 user'])
      // Every term must be in the same event; a quoted phrase is one term.
      expect((await searchSessions('zircon blog', base)).hits).toHaveLength(1)
      expect((await searchSessions('"cache is slow"', base)).hits).toHaveLength(1)
      expect((await searchSessions('"slow cache"', base)).hits).toHaveLength(0)
      expect((await searchSessions('ZIRCON CACHE', base)).hits).toHaveLength(1)
    })
  })

  it('bad options throw at the call, naming the option', async () => {
    await expect(searchSessions('x', { limit: 0 })).rejects.toThrow(
      'Expected `limit` to be a whole number ≥ 1',
    )
    await expect(searchSessions('x', { role: 'nobody' as never })).rejects.toThrow('Expected `role`')
    await expect(searchSessions('x', { since: new Date('nope') })).rejects.toThrow('Expected `since`')
    await expect(searchSessions('   ')).rejects.toThrow('Expected `query`')
    await expect(searchSessions('x', { colour: 1 } as never)).rejects.toThrow('Unknown option `colour`')
  })
})
