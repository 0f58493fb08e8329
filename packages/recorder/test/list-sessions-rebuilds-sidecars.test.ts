import { lstat, mkdir, readFile, readlink, readdir, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FORMAT_VERSION, listSessions } from '../src/index.js'
import { makeRecord, withTempDir } from './helpers/records.js'
import { meta, metaPath as sidecarOf, setMtime, writeMetaFile, writeTranscript } from './helpers/sessions.js'

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

const { v: _v, ...summary } = expectedRebuilt

describe('listSessions rebuilds a missing, corrupt or stale sidecar in memory; saves it only when asked and safe', () => {
  it('is read-only by default: a missing sidecar is rebuilt but never written', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      const [session] = await listSessions(dir)
      expect(session).toEqual({
        ...summary,
        filePath: path.join(dir, 's1.jsonl'),
        format: 'sessiontape',
        source: 'rebuilt',
        note: 'no sidecar; rebuilt from the transcript',
      })
      expect(await readdir(dir)).toEqual(['s1.jsonl'])
    })
  })

  it('with writeRebuiltMeta saves a missing sidecar atomically, mode 600', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session?.note).toBe('no sidecar; rebuilt from the transcript and saved')
      const metaPath = sidecarOf(dir, 's1')
      expect(JSON.parse(await readFile(metaPath, 'utf8'))).toEqual(expectedRebuilt)
      expect((await stat(metaPath)).mode & 0o777).toBe(0o600)
      // Only the transcript in the top level (what a shipper's glob sees); the sidecar in `.sessiontape`.
      expect((await readdir(dir)).sort()).toEqual(['.sessiontape', 's1.jsonl'])
      expect(await readdir(path.join(dir, '.sessiontape'))).toEqual(['s1.meta.json'])
      expect((await stat(path.join(dir, '.sessiontape'))).mode & 0o777).toBe(0o700)
      // The saved sidecar makes the next listing cheap again.
      expect((await listSessions(dir))[0]?.source).toBe('sidecar')
    })
  })

  it('with writeRebuiltMeta replaces a stale sidecar of ours', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      await writeMetaFile(dir, meta('s1', '2026-01-01T00:00:00.000Z', 1))
      await setMtime(sidecarOf(dir, 's1'), 1_000_000)
      await setMtime(path.join(dir, 's1.jsonl'), 1_000_060)
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session).toMatchObject({ recordCount: 4, source: 'rebuilt' })
      expect(session?.note).toBe(
        'sidecar is older than the transcript (stale); rebuilt from the transcript and saved',
      )
      expect(JSON.parse(await readFile(sidecarOf(dir, 's1'), 'utf8'))).toEqual(expectedRebuilt)
    })
  })

  it.for([
    { name: 'not JSON', text: '{"sessionId":"s1","crea', note: 'sidecar is not valid JSON' },
    {
      name: 'another shape (another tool’s file)',
      text: JSON.stringify({ agentType: 'general-purpose', description: 'x' }),
      note: 'sidecar names another session (undefined)',
    },
    {
      name: 'for another session',
      text: JSON.stringify(meta('other', '2026-01-01T00:00:00.000Z', 1)),
      note: 'sidecar names another session ("other")',
    },
  ])(
    'never overwrites a file at the sidecar name that is not a sidecar of ours: $name',
    async ({ text, note }) => {
      await withTempDir(async (dir) => {
        await transcriptWithTitles(dir)
        const metaPath = sidecarOf(dir, 's1')
        await mkdir(path.dirname(metaPath), { mode: 0o700 })
        await writeFile(metaPath, text, { mode: 0o644 })
        const [session] = await listSessions(dir, { writeRebuiltMeta: true })
        expect(session).toMatchObject({ ...summary, source: 'rebuilt' })
        expect(session?.note).toBe(
          `${note}; rebuilt from the transcript, not saved: the file at the sidecar path is not a sidecar of ours (${note})`,
        )
        expect(await readFile(metaPath, 'utf8')).toBe(text)
        expect((await stat(metaPath)).mode & 0o777).toBe(0o644)
      })
    },
  )

  it('never writes through a symlink planted at the sidecar name', async () => {
    await withTempDir(async (dir) => {
      await transcriptWithTitles(dir)
      const target = path.join(dir, 'precious.txt')
      await writeFile(target, 'precious', { mode: 0o644 })
      const metaPath = sidecarOf(dir, 's1')
      await mkdir(path.dirname(metaPath), { mode: 0o700 })
      await symlink(target, metaPath)
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session?.note).toMatch(/not saved: a symlink is at the sidecar path$/)
      expect((await lstat(metaPath)).isSymbolicLink()).toBe(true)
      expect(await readlink(metaPath)).toBe(target)
      expect(await readFile(target, 'utf8')).toBe('precious')
      expect((await stat(target)).mode & 0o777).toBe(0o644)
    })
  })

  it('never writes a sidecar for a transcript that is not ours (another tool’s JSONL)', async () => {
    await withTempDir(async (dir) => {
      const foreign = `${JSON.stringify({ parentUuid: null, sessionId: 'x', type: 'user', uuid: 'a', timestamp: '2026-01-01T00:00:00.000Z' })}\n`
      await writeFile(path.join(dir, 'agent-1.jsonl'), foreign)
      const theirs = JSON.stringify({ agentType: 'general-purpose' })
      await writeFile(path.join(dir, 'agent-1.meta.json'), theirs)
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session?.note).toMatch(/not saved: the transcript is not ours: its first line does not start/)
      expect(await readFile(path.join(dir, 'agent-1.meta.json'), 'utf8')).toBe(theirs)
      expect((await readdir(dir)).sort()).toEqual(['agent-1.jsonl', 'agent-1.meta.json'])
    })
  })
})
