import { describe, expect, it } from 'vitest'

import { createRecorder, type FsyncMode } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

async function burstsAndFlush(fsync: FsyncMode) {
  const dir = await tempDir()
  const seam = fakeFs({ delayMs: 2 })
  const rec = createRecorder({ dir, fs: seam, fsync })
  for (let burst = 0; burst < 5; burst++) {
    for (let i = 0; i < 100; i++) rec.record('chat', { burst, i })
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const beforeFlush = seam.calls.fdatasync
  await rec.flush()
  const flushSyncs = seam.calls.fdatasync - beforeFlush
  await rec.close()
  expect(readTranscript(rec.filePath)).toHaveLength(500)
  return { seam, rec, beforeFlush, flushSyncs }
}

describe('durability: fsync never | flush | batch, a sync always covers a whole batch', () => {
  it("'never' never syncs", async () => {
    const { seam } = await burstsAndFlush('never')
    expect(seam.calls.fdatasync).toBe(0)
  })

  it("'flush' (the default) syncs only when flush() asks, once per flush", async () => {
    const { seam, beforeFlush, flushSyncs, rec } = await burstsAndFlush('flush')
    expect(beforeFlush).toBe(0)
    expect(flushSyncs).toBe(1)
    expect(seam.calls.fdatasync).toBe(1)
    expect(rec.stats().fsyncs).toBe(1)
  })

  it("'batch' syncs after every write, never once per record, and counts records persisted only when synced", async () => {
    const { seam, rec } = await burstsAndFlush('batch')
    expect(seam.calls.fdatasync).toBeGreaterThanOrEqual(1)
    expect(seam.calls.fdatasync).toBeLessThanOrEqual(seam.calls.write)
    expect(seam.calls.write).toBeLessThan(500 / 10)
    expect(rec.stats().persisted).toBe(500)
  })

  it('the default is flush: an unflushed recorder has not synced, a flushed one has', async () => {
    const dir = await tempDir()
    const seam = fakeFs()
    const rec = createRecorder({ dir, fs: seam })
    rec.record('a')
    // Written by the background loop (no flush asked for it): polled, not a fixed wait, on a loaded machine.
    while (rec.stats().persisted < 1) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(seam.calls.fdatasync).toBe(0)
    await rec.flush()
    expect(seam.calls.fdatasync).toBe(1)
    // Nothing new written since: the next flush needs no sync.
    await rec.flush()
    expect(seam.calls.fdatasync).toBe(1)
    await rec.close()
  })
})
