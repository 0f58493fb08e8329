import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { refreshCatalog } from '../src/catalog/catalog.js'
import { catalogSessions, searchSessions } from '../src/index.js'
import { appendClaudeTurns, withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const ID = '22222222-aaaa-4000-8000-000000000000'
const CWD = '/home/dev/app'

describe('a session appended to by a live agent', () => {
  it('is searchable on the next query, read from where the last read stopped', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const cacheDir = path.join(root, 'cache')
      const options = { dirs: [projects], cacheDir }
      const file = await writeClaudeSession(projects, ID, CWD, [
        { user: 'set up the build', assistant: 'done' },
      ])
      await writeClaudeSession(projects, '33333333-aaaa-4000-8000-000000000000', CWD, [
        { user: 'other', assistant: 'x' },
      ])
      expect((await searchSessions('narwhal', options)).hits).toEqual([])

      await appendClaudeTurns(file, ID, CWD, [{ user: 'now the narwhal module', assistant: 'narwhal added' }])
      const { hits } = await searchSessions('narwhal', options)
      expect(hits.map((hit) => [hit.role, hit.line])).toEqual([
        ['user', 3],
        ['assistant', 4],
      ])
      const [session] = (await catalogSessions(options)).filter((s) => s.sessionId === ID)
      expect(session).toMatchObject({ recordCount: 4, turnCount: 2 })
      expect(session!.usage.inputTokens).toBe(200)

      // The refresh after another append reads only the tail, and the other session not at all.
      await appendClaudeTurns(file, ID, CWD, [{ user: 'and the okapi one', assistant: 'ok' }])
      const refreshed = await refreshCatalog([projects], { cacheDir, walk: 'deep', query: [] })
      expect(refreshed.stats).toEqual({ fresh: 1, appended: 1, read: 0, unreadable: 0 })
      expect((await searchSessions('okapi', options)).hits.map((hit) => hit.line)).toEqual([5])
    })
  })

  it('a last line still being written is not taken until it is whole', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }
      const file = await writeClaudeSession(projects, ID, CWD, [{ user: 'start', assistant: 'ok' }])
      const { appendFile } = await import('node:fs/promises')
      const whole = `${JSON.stringify({ type: 'user', uuid: 'u-live', parentUuid: null, sessionId: ID, cwd: CWD, timestamp: '2026-03-01T11:00:00.000Z', message: { role: 'user', content: 'the capybara plan' } })}\n`
      await appendFile(file, whole.slice(0, 60))
      expect((await searchSessions('capybara', options)).hits).toEqual([])
      await appendFile(file, whole.slice(60))
      expect((await searchSessions('capybara', options)).hits.map((hit) => hit.uuid)).toEqual(['u-live'])
    })
  })
})
