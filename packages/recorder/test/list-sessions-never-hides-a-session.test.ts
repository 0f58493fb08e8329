import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { listSessions } from '../src/index.js'
import { makeRecord, toJsonl, withTempDir } from './helpers/records.js'
import { writeTranscript } from './helpers/sessions.js'

describe('listSessions never hides or deletes a session it cannot parse', () => {
  it('lists a session whose first line is garbage, with the records it could read', async () => {
    await withTempDir(async (dir) => {
      await writeFile(
        path.join(dir, 'garbled.jsonl'),
        `\0\0\0garbage\n${toJsonl([makeRecord(5, null)])}{"torn`,
      )
      const [session] = await listSessions(dir)
      expect(session).toMatchObject({
        sessionId: 'garbled',
        recordCount: 1,
        lastUuid: 'u5',
        source: 'rebuilt',
      })
    })
  })

  it('lists a session whose sidecar cannot be read or replaced', async () => {
    await withTempDir(async (dir) => {
      await writeTranscript(dir, 's1', 3)
      // A directory where the sidecar should be: reading fails (EISDIR) and so does saving a rebuilt one.
      await mkdir(path.join(dir, '.sessiontape', 's1.meta.json'), { recursive: true })
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session).toMatchObject({ sessionId: 's1', recordCount: 3, source: 'rebuilt' })
      expect(session?.note).toBe(
        'sidecar unreadable (EISDIR); rebuilt from the transcript, not saved: something other than a file is at the sidecar path',
      )
    })
  })

  it('lists a transcript that cannot be read at all (a dangling symlink), and an empty one', async () => {
    await withTempDir(async (dir) => {
      await symlink(path.join(dir, 'gone'), path.join(dir, 'dangling.jsonl'))
      await writeFile(path.join(dir, 'empty.jsonl'), '')
      await writeTranscript(dir, 'ok', 1)
      const sessions = await listSessions(dir)
      expect(sessions.map((s) => s.sessionId).sort()).toEqual(['dangling', 'empty', 'ok'])
      expect(sessions.find((s) => s.sessionId === 'dangling')).toMatchObject({
        recordCount: 0,
        source: 'stat',
        note: 'transcript unreadable (ENOENT); listed so it is not lost',
      })
      expect(sessions.find((s) => s.sessionId === 'empty')).toMatchObject({ recordCount: 0, lastUuid: null })
    })
  })

  it('lists a transcript whose name is not a valid session id, and does not write a sidecar for it', async () => {
    await withTempDir(async (dir) => {
      await writeFile(path.join(dir, 'my session.jsonl'), toJsonl([makeRecord(0, null)]))
      const [session] = await listSessions(dir)
      expect(session).toMatchObject({ sessionId: 'my session', recordCount: 1 })
      expect(await readdir(dir)).toEqual(['my session.jsonl'])
    })
  })

  it('never deletes or renames anything', async () => {
    await withTempDir(async (dir) => {
      await writeFile(path.join(dir, 'bad.jsonl'), 'not json\n')
      await writeFile(path.join(dir, 'bad.meta.json'), 'not json')
      await writeFile(path.join(dir, 'notes.txt'), 'unrelated')
      await listSessions(dir)
      expect((await readdir(dir)).sort()).toEqual(['bad.jsonl', 'bad.meta.json', 'notes.txt'])
    })
  })
})
