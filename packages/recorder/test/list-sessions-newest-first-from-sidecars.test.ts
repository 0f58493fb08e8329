import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { listSessions } from '../src/index.js'
import { withTempDir } from './helpers/records.js'
import { meta, writeMetaFile, writeTranscript } from './helpers/sessions.js'

describe('listSessions lists every session newest first, from the metadata sidecars', () => {
  it('sorts by updatedAt, newest first, and takes the figures from the sidecar', async () => {
    await withTempDir(async (dir) => {
      for (const [id, updatedAt] of [
        ['old', '2026-01-01T00:00:00.000Z'],
        ['newest', '2026-03-01T00:00:00.000Z'],
        ['middle', '2026-02-01T00:00:00.000Z'],
      ] as const) {
        await writeTranscript(dir, id, 2)
        // recordCount 999 is not what the transcript holds: seeing it proves the transcript was not read.
        await writeMetaFile(dir, meta(id, updatedAt, 999, `title of ${id}`))
      }
      const sessions = await listSessions(dir)
      expect(sessions.map((s) => s.sessionId)).toEqual(['newest', 'middle', 'old'])
      expect(sessions[0]).toEqual({
        sessionId: 'newest',
        filePath: path.join(dir, 'newest.jsonl'),
        format: 'sessiontape',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-03-01T00:00:00.000Z',
        recordCount: 999,
        title: 'title of newest',
        lastUuid: 'last-of-newest',
        source: 'sidecar',
      })
    })
  })

  it('returns an empty list for a directory without transcripts, and rejects a missing directory', async () => {
    await withTempDir(async (dir) => {
      expect(await listSessions(dir)).toEqual([])
      await expect(listSessions(path.join(dir, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' })
    })
  })

  it('throws a TypeError for a non-string dir', async () => {
    await expect(listSessions(42 as never)).rejects.toThrow(
      'Expected `dir` to be a non-empty string, got `42` (number)',
    )
  })
})
