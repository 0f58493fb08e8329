import fs from 'node:fs'
import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('flushSync() writes everything queued before it returns, even before the transcript was opened', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir, sessionId: 'sync' })
  const uuids = Array.from({ length: 50 }, (_, i) => rec.record('event', { i }))
  const watermark = rec.flushSync()
  expect(watermark).toEqual({ uuid: uuids[49], count: 50 })
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  // The async side carries on normally afterwards, with no duplicates.
  const more = rec.record('event', { i: 50 })
  await rec.close()
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([...uuids, more])
})

it('flushSync() while a write is in flight continues right after it: nothing twice, nothing lost', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir, sessionId: 'in-flight', fsync: 'never' })
  await rec.ready()
  const uuids: string[] = []
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 200; i++) uuids.push(rec.record('chat', { round, i, text: 'p'.repeat(300) }))
    // Let a write start, then drain synchronously while it may still be in the threadpool.
    await new Promise((resolve) => setImmediate(resolve))
    rec.flushSync()
    expect(fs.statSync(rec.filePath).size).toBe(rec.stats().bytesWritten)
  }
  await rec.close()
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
})
