import { utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { claudeLines, withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

const ID = '11111111-aaaa-4000-8000-000000000000'
const CWD = '/home/dev/app'

describe('a session rewritten behind the cache is read again', () => {
  it('rewritten in place (same length, or shorter with an old mtime): the new text is what is found', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }
      const file = await writeClaudeSession(projects, ID, CWD, [
        { user: 'talk about alpacas', assistant: 'ok' },
      ])
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(1)

      // Rewritten in place with different text of the same length: the new mtime says so...
      await writeFile(file, claudeLines(ID, CWD, [{ user: 'talk about walruses', assistant: 'ok' }]))
      expect((await searchSessions('walruses', options)).hits).toHaveLength(1)
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(0)

      // ...and a shorter rewrite (an editor's save, a tool that truncates) is read whole, not as an append.
      await writeFile(file, claudeLines(ID, CWD, [{ user: 'tapirs', assistant: 'ok' }]))
      const old = new Date('2026-01-01T00:00:00Z')
      await utimes(file, old, old)
      const [session] = await catalogSessions(options)
      expect(session).toMatchObject({ recordCount: 2, turnCount: 1 })
      expect((await searchSessions('tapirs', options)).hits).toHaveLength(1)
      expect((await searchSessions('walruses', options)).hits).toHaveLength(0)
    })
  })

  it('rewritten in place at the same size, the change far from its start and end: read whole', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }
      // Past the 4 KiB checked at the start and before the end: only the size says whether it grew.
      const filler = 'x'.repeat(6000)
      const turns = (word: string) => [
        { user: `start ${filler}`, assistant: 'ok' },
        { user: `middle about ${word}`, assistant: 'ok' },
        { user: `end ${filler}`, assistant: 'ok' },
      ]
      const file = await writeClaudeSession(projects, ID, CWD, turns('alpacas'))
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(1)
      // Same inode, same size, a new mtime: nothing was appended, so nothing may be read "from the old end".
      await writeFile(file, claudeLines(ID, CWD, turns('gazelle')))
      expect((await searchSessions('gazelle', options)).hits).toHaveLength(1)
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(0)
    })
  })

  it('rewritten in place at the same size with its mtime put back (touch -r, rsync -t --inplace): read whole', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }
      const file = await writeClaudeSession(projects, ID, CWD, [
        { user: 'talk about alpacas', assistant: 'ok' },
      ])
      // A whole second: what utimes sets is exactly what stat reads back.
      const when = new Date('2026-02-01T10:00:00Z')
      await utimes(file, when, when)
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(1)
      // Same inode, size and mtime: only the change time (which no one can set) says it changed.
      await writeFile(file, claudeLines(ID, CWD, [{ user: 'talk about gazelle', assistant: 'ok' }]))
      await utimes(file, when, when)
      expect((await searchSessions('gazelle', options)).hits).toHaveLength(1)
      expect((await searchSessions('alpacas', options)).hits).toHaveLength(0)
    })
  })

  it('grown but with earlier bytes changed: read whole, not from the old end', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }
      const file = await writeClaudeSession(projects, ID, CWD, [
        { user: 'first about ibexes', assistant: 'ok' },
      ])
      expect((await catalogSessions(options))[0]).toMatchObject({ turnCount: 1 })
      await writeFile(
        file,
        claudeLines(ID, CWD, [
          { user: 'first about oryxes', assistant: 'ok' },
          { user: 'second', assistant: 'ok' },
        ]),
      )
      expect((await catalogSessions(options))[0]).toMatchObject({ turnCount: 2, recordCount: 4 })
      expect((await searchSessions('ibexes', options)).hits).toHaveLength(0)
      expect((await searchSessions('oryxes', options)).hits).toHaveLength(1)
    })
  })
})
