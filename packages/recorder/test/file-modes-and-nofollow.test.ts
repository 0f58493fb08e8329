import fs from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('creates the directory 0o700 and the transcript 0o600', async () => {
  const root = await tempDir()
  const dir = path.join(root, 'private', 'sessions')
  const rec = createRecorder({ dir, sessionId: 'modes' })
  rec.record('event')
  await rec.close()
  expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
  expect(fs.statSync(rec.filePath).mode & 0o777).toBe(0o600)
  expect(readTranscript(rec.filePath)).toHaveLength(1)
})

it('refuses a symlink planted at the transcript path instead of following it', async () => {
  const dir = await tempDir()
  const target = path.join(dir, 'elsewhere.txt')
  fs.writeFileSync(target, 'do not touch\n')
  fs.symlinkSync(target, path.join(dir, 'planted.jsonl'))

  const errors: RecorderError[] = []
  const rec = createRecorder({
    dir,
    sessionId: 'planted',
    lock: false,
    onError: (error) => errors.push(error),
  })
  rec.record('event', { secret: 'must not leak through the link' })
  await expect(rec.ready()).rejects.toMatchObject({ code: 'ERR_RECORDER_OPEN_FAILED' })
  expect(errors[0]).toMatchObject({ code: 'ERR_RECORDER_OPEN_FAILED', cause: { code: 'ELOOP' } })
  await expect(rec.flush()).rejects.toMatchObject({ unwrittenRecords: 1 })
  expect(fs.readFileSync(target, 'utf8')).toBe('do not touch\n')
  expect(fs.lstatSync(path.join(dir, 'planted.jsonl')).isSymbolicLink()).toBe(true)
  // Once the link is gone the recorder recovers and writes into a file of its own.
  fs.unlinkSync(path.join(dir, 'planted.jsonl'))
  await rec.close()
  expect(readTranscript(rec.filePath)).toHaveLength(1)
  expect(fs.readFileSync(target, 'utf8')).toBe('do not touch\n')
})
