import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, type FsyncMode } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

/** Which directories were fsynced, relative to `root`, in order. */
function dirSyncs(root: string, fail?: () => boolean) {
  const synced: string[] = []
  const seam = fakeFs({
    overrides: {
      syncDir: (real) => async (dir) => {
        if (fail?.() === true) throw errno('EIO', 'fsync')
        await real(dir)
        synced.push(path.relative(root, dir) || '.')
      },
      syncDirSync: (real) => (dir) => {
        real(dir)
        synced.push(path.relative(root, dir) || '.')
      },
    },
  })
  return { seam, synced }
}

describe('a created transcript survives a power cut: its directory entries are fsynced once each, before the flush resolves', () => {
  it.for<[FsyncMode, string[]]>([
    ['flush', ['.', 's', 's/deep']],
    ['batch', ['.', 's', 's/deep']],
    ['never', []],
  ])(
    "fsync: '%s' in a tree that does not exist yet: each level made and the transcript's directory, once",
    async ([fsync, expected]) => {
      const root = await tempDir()
      const { seam, synced } = dirSyncs(root)
      const rec = createRecorder({ dir: path.join(root, 's', 'deep'), fsync, meta: false, fs: seam })
      rec.record('user', { text: 'one' })
      await rec.flush()
      // The directories are synced by the time the first flush resolves, shallowest first.
      expect(synced).toEqual(expected)
      for (let i = 0; i < 5; i++) {
        rec.record('user', { text: `more ${i}` })
        await rec.flush()
      }
      await rec.close()
      expect(synced).toEqual(expected)
      expect(readTranscript(rec.filePath)).toHaveLength(6)
    },
  )

  it('a resumed transcript in an existing directory: that directory only (whoever created the file may not have synced it)', async () => {
    const root = await tempDir()
    const first = createRecorder({ dir: root, sessionId: 'again', meta: false })
    first.record('user', { text: 'earlier' })
    await first.close()
    const { seam, synced } = dirSyncs(root)
    const rec = createRecorder({ dir: root, sessionId: 'again', resume: true, meta: false, fs: seam })
    rec.record('user', { text: 'later' })
    await rec.flush()
    await rec.close()
    expect(synced).toEqual(['.'])
  })

  it('a transcript deleted and recreated under the recorder: its directory is synced again before the flush resolves', async () => {
    const root = await tempDir()
    const { seam, synced } = dirSyncs(root)
    const rec = createRecorder({
      dir: root,
      sessionId: 'gone',
      meta: false,
      fileCheckIntervalMs: 0,
      onError: () => {},
      fs: seam,
    })
    rec.record('user', { text: 'one' })
    await rec.flush()
    fs.unlinkSync(rec.filePath)
    rec.record('user', { text: 'two' })
    await rec.flush()
    await rec.close()
    expect(synced).toEqual(['.', '.'])
    expect(readTranscript(rec.filePath).map((r) => r.text)).toEqual(['two'])
  })

  it('two recorders making the same new directory: whichever flushes first syncs the levels the other made', async () => {
    const root = await tempDir()
    const dir = path.join(root, 'shared', 'deep')
    const first = dirSyncs(root)
    const second = dirSyncs(root)
    const a = createRecorder({ dir, sessionId: 'a', meta: false, fs: first.seam })
    const b = createRecorder({ dir, sessionId: 'b', meta: false, fs: second.seam })
    b.record('user', { text: 'b flushes first' })
    await b.flush()
    expect(second.synced).toEqual(['.', 'shared', 'shared/deep'])
    a.record('user', { text: 'a' })
    await Promise.all([a.close(), b.close()])
    expect(first.synced).toContain('shared/deep')
  })

  it('flushSync() (the synchronous driver) syncs the directory too', async () => {
    const root = await tempDir()
    const { seam, synced } = dirSyncs(root)
    const rec = createRecorder({ dir: path.join(root, 'new'), meta: false, fs: seam })
    rec.record('user', { text: 'one' })
    rec.flushSync()
    expect(synced).toEqual(['.', 'new'])
    await rec.close()
    expect(synced).toEqual(['.', 'new'])
  })

  it('a directory fsync that fails rejects the flush (ERR_RECORDER_FSYNC_FAILED); the next flush syncs it and resolves', async () => {
    const root = await tempDir()
    let failures = 1
    const { seam, synced } = dirSyncs(root, () => failures-- > 0)
    const rec = createRecorder({ dir: root, meta: false, onError: () => {}, fs: seam })
    rec.record('user', { text: 'one' })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_RECORDER_FSYNC_FAILED' })
    await rec.flush()
    expect(synced).toEqual(['.'])
    await rec.close()
    expect(readTranscript(rec.filePath)).toHaveLength(1)
  })
})
