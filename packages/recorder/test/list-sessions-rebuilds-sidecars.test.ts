import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FORMAT_VERSION, listSessions } from '../src/index.js'
import { makeRecord, withTempDir } from './helpers/records.js'
import { meta, setMtime, writeMetaFile, writeTranscript } from './helpers/sessions.js'

const expectedRebuilt = {
  sessionId: 's1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:03.000Z',
  recordCount: 4,
  lastUuid: 'u3',
  title: 'second title',
  v: FORMAT_VERSION,
}

async function transcriptWithTitles(dir: string): Promise<void> {
  await writeTranscript(dir, 's1', 2, 0, [
    makeRecord(2, 'u1', { type: 'title', title: 'first title' }, 's1'),
    makeRecord(3, 'u2', { type: 'title', title: 'second title' }, 's1'),
  ])
}

describe('listSessions rebuilds a missing, corrupt or stale sidecar from the transcript', () => {
  it.for([
    { name: 'missing', write: async () => {}, note: 'no sidecar' },
    {
      name: 'not JSON',
      write: (dir: string) => writeFile(path.join(dir, 's1.meta.json'), '{"sessionId":"s1","crea'),
      note: 'sidecar is not valid JSON',
    },
    {
      name: 'wrong shape',
      write: (dir: string) =>
        writeFile(path.join(dir, 's1.meta.json'), JSON.stringify({ sessionId: 's1', recordCount: -1 })),
      note: 'sidecar has no valid `createdAt`',
    },
    {
      name: 'for another session',
      write: (dir: string) => writeMetaFile(dir, meta('other', '2026-01-01T00:00:00.000Z', 1)),
      note: 'sidecar names another session ("other")',
      rename: true,
    },
  ])('$name', async ({ write, note, rename }) => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      await write(dir)
      if (rename === true) {
        await writeFile(path.join(dir, 's1.meta.json'), await readFile(path.join(dir, 'other.meta.json')))
      }
      const [session] = await listSessions(dir)
      const { v: _v, ...summary } = expectedRebuilt
      expect(session).toEqual({
        ...summary,
        filePath: path.join(dir, 's1.jsonl'),
        source: 'rebuilt',
        note: `${note}; rebuilt from the transcript and saved`,
      })
      expect(JSON.parse(await readFile(path.join(dir, 's1.meta.json'), 'utf8'))).toEqual(expectedRebuilt)
      // The saved sidecar makes the next listing cheap again.
      expect((await listSessions(dir))[0]?.source).toBe('sidecar')
    })
  })

  it('rebuilds a sidecar much older than its transcript (the writer crashed before saving it)', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      await writeMetaFile(dir, meta('s1', '2026-01-01T00:00:00.000Z', 1))
      await setMtime(path.join(dir, 's1.meta.json'), 1_000_000)
      await setMtime(path.join(dir, 's1.jsonl'), 1_000_060)
      const [session] = await listSessions(dir)
      expect(session).toMatchObject({ recordCount: 4, source: 'rebuilt' })
      expect(session?.note).toMatch(/^sidecar is older than the transcript \(stale\)/)
    })
  })

  it('leaves sidecars alone when writeRebuiltMeta is false', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      const [session] = await listSessions(dir, { writeRebuiltMeta: false })
      expect(session).toMatchObject({
        recordCount: 4,
        source: 'rebuilt',
        note: 'no sidecar; rebuilt from the transcript',
      })
      await expect(readFile(path.join(dir, 's1.meta.json'))).rejects.toMatchObject({ code: 'ENOENT' })
    })
  })
})
