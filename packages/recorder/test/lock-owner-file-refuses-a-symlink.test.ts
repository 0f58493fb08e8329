import fs from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// The lock's owner file sits in the sidecar directory, like the sidecar: a symlink planted at its path must
// not make the recorder overwrite whatever the link points to.
it('a symlink planted at the lock owner path is not followed: its target is untouched, the session still works', async () => {
  const dir = await tempDir()
  const victim = path.join(dir, 'victim.txt')
  fs.writeFileSync(victim, 'keep me\n')
  fs.mkdirSync(path.join(dir, '.sessiontape'), { mode: 0o700 })
  fs.symlinkSync(victim, path.join(dir, '.sessiontape', 'planted.jsonl.lock.owner'))
  const rec = createRecorder({ dir, sessionId: 'planted' })
  const uuid = rec.record('event')
  await rec.ready()
  await rec.close()
  expect(fs.readFileSync(victim, 'utf8')).toBe('keep me\n')
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([uuid])
})
