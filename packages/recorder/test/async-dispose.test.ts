import fs from 'node:fs'
import { expect, it } from 'vitest'

import { createRecorder, RecorderClosedError, type Recorder } from '../src/index.js'
import { lockPathOf } from '../src/lock/session-lock.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('`await using` closes the recorder at the end of the scope: flushed, lock released', async () => {
  const dir = await tempDir()
  let escaped: Recorder | undefined
  let uuid = ''
  {
    await using rec = createRecorder({ dir, sessionId: 'disposed' })
    escaped = rec
    uuid = rec.record('event', { n: 1 })
  }
  expect(readTranscript(escaped.filePath).map((r) => r.uuid)).toEqual([uuid])
  expect(fs.existsSync(lockPathOf(escaped.filePath))).toBe(false)
  expect(() => escaped.record('event')).toThrow(RecorderClosedError)
  // The session can be taken again at once.
  await using again = createRecorder({ dir, sessionId: 'disposed', resume: true })
  await expect(again.ready()).resolves.toBeUndefined()
  expect(again.lastUuid).toBe(uuid)
})

it('close() is idempotent and dispose after close is harmless', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir })
  rec.record('event')
  const first = rec.close()
  expect(rec.close()).toBe(first)
  await first
  await rec[Symbol.asyncDispose]()
  expect(readTranscript(rec.filePath)).toHaveLength(1)
})
