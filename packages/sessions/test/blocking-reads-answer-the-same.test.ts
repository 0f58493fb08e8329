import { mkdir, symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { appendClaudeTurns, withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const ID = '55555555-aaaa-4000-8000-000000000000'
const CWD = '/home/dev/app'

describe('blocking: true (the CLI) answers exactly as the asynchronous calls do', () => {
  it('the same listing and hits, an append found at once, an unreadable file listed with its note', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const file = await writeClaudeSession(projects, ID, CWD, [
        { user: 'set up the build', assistant: 'ok' },
      ])
      await writeClaudeSession(projects, '66666666-aaaa-4000-8000-000000000000', CWD, [
        { user: 'the walrus config', assistant: 'walrus done' },
      ])
      await mkdir(path.join(projects, '-home-dev-app'), { recursive: true })
      await symlink(path.join(root, 'nowhere.jsonl'), path.join(projects, '-home-dev-app', 'gone.jsonl'))
      const asyncCalls = { dirs: [projects], cacheDir: path.join(root, 'cache-a') }
      const blocking = { dirs: [projects], cacheDir: path.join(root, 'cache-b'), blocking: true }
      // Twice each: the first call builds the cache, the second answers from it.
      for (let round = 0; round < 2; round++) {
        expect(await catalogSessions(blocking)).toEqual(await catalogSessions(asyncCalls))
        expect(await searchSessions('walrus', blocking)).toEqual(await searchSessions('walrus', asyncCalls))
      }
      const listed = await catalogSessions(blocking)
      expect(listed.find((s) => s.file.endsWith('gone.jsonl'))?.note).toMatch(/transcript unreadable/)

      await appendClaudeTurns(file, ID, CWD, [{ user: 'now the walrus module', assistant: 'added' }])
      const { hits } = await searchSessions('walrus', blocking)
      expect(hits.filter((hit) => hit.sessionId === ID).map((hit) => hit.line)).toEqual([3])
      expect(hits).toEqual((await searchSessions('walrus', asyncCalls)).hits)
    })
  })

  it('is validated like the other options', async () => {
    await expect(catalogSessions({ blocking: 'yes' as unknown as boolean })).rejects.toThrow(
      /Expected `blocking` to be a boolean/,
    )
  })
})
