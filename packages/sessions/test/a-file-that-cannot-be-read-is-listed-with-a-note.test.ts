import { execFileSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogSessions, searchSessions } from '../src/index.js'
import { withTemp, writeClaudeSession } from './helpers/claude-sessions.js'

describe('a session file that cannot be read is listed, with a note, and never opened if not a regular file', () => {
  it('a dangling link, a FIFO behind a link and a file of garbage are listed; search skips them', async () => {
    await withTemp(async (root) => {
      const projects = path.join(root, 'projects')
      await writeClaudeSession(projects, 'dddddddd-0000-4000-8000-000000000001', '/w', [
        { user: 'fine one', assistant: 'ok' },
      ])
      const dir = path.join(projects, '-w')
      await symlink(path.join(root, 'gone.jsonl'), path.join(dir, 'dangling.jsonl'))
      const fifo = path.join(root, 'pipe')
      execFileSync('mkfifo', [fifo])
      await symlink(fifo, path.join(dir, 'fifo.jsonl'))
      await writeFile(path.join(dir, 'garbage.jsonl'), Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x7b, 0x0a]))
      await mkdir(path.join(root, 'cache'))
      const options = { dirs: [projects], cacheDir: path.join(root, 'cache') }

      const sessions = await catalogSessions(options)
      const notes = Object.fromEntries(sessions.map((s) => [path.basename(s.file), s.note]))
      expect(notes).toEqual({
        'dddddddd-0000-4000-8000-000000000001.jsonl': undefined,
        'dangling.jsonl': 'transcript unreadable (ENOENT); listed so it is not lost',
        'fifo.jsonl': 'transcript unreadable (not a regular file); listed so it is not lost',
        'garbage.jsonl': '2 damaged line(s)',
      })
      expect((await searchSessions('fine', options)).hits).toHaveLength(1)
      // Listed again from the cache: the same notes, nothing hangs on the FIFO.
      expect(await catalogSessions(options)).toEqual(sessions)
    })
  })
})
