import fs from 'node:fs'
import { expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { lockPathOf } from '../src/lock/session-lock.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 8000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

it('a lock lost while held reaches onError (never a throw from a timer); the lock is taken again and writing goes on', async () => {
  const dir = await tempDir()
  const errors: RecorderError[] = []
  const rec = createRecorder({
    dir,
    sessionId: 'compromised',
    lockStaleMs: 2000,
    onError: (error) => errors.push(error),
  })
  const first = rec.record('before')
  await rec.flush()
  // Someone removes the lock directory; proper-lockfile notices at its next heartbeat (every second here).
  fs.rmdirSync(lockPathOf(rec.filePath))
  await until(
    () => errors.some((error) => error.code === 'ERR_RECORDER_LOCK_COMPROMISED'),
    'the compromise report',
  )
  const second = rec.record('after')
  await expect(rec.flush()).resolves.toMatchObject({ uuid: second, count: 2 })
  expect(fs.existsSync(lockPathOf(rec.filePath))).toBe(true)
  await rec.close()
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
  expect(fs.existsSync(lockPathOf(rec.filePath))).toBe(false)
})

it('if the transcript changed while the lock was lost, the recorder stops for good instead of forking it', async () => {
  const dir = await tempDir()
  const errors: RecorderError[] = []
  const rec = createRecorder({
    dir,
    sessionId: 'forked',
    lockStaleMs: 2000,
    onError: (error) => errors.push(error),
  })
  rec.record('before')
  await rec.flush()
  fs.rmdirSync(lockPathOf(rec.filePath))
  // Another writer appends meanwhile.
  fs.appendFileSync(rec.filePath, '{"uuid":"other-writer"}\n')
  await until(
    () => errors.some((error) => error.code === 'ERR_RECORDER_LOCK_COMPROMISED'),
    'the compromise report',
  )
  rec.record('after')
  await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_RECORDER_LOCK_COMPROMISED' })
  await expect(rec.close()).rejects.toMatchObject({ code: 'ERR_RECORDER_LOCK_COMPROMISED' })
  const lines = fs.readFileSync(rec.filePath, 'utf8').trim().split('\n')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toBe('{"uuid":"other-writer"}')
  // Closing after the final failure still releases the (re-taken) lock.
  expect(fs.existsSync(lockPathOf(rec.filePath))).toBe(false)
})
