import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('group commit: one write in flight, everything queued meanwhile goes in the next single write', () => {
  it('a synchronous burst of 1,000 records goes out in one write', async () => {
    const dir = await tempDir()
    const seam = fakeFs()
    const rec = createRecorder({ dir, fs: seam, fsync: 'never' })
    await rec.ready()
    for (let i = 0; i < 1000; i++) rec.record('chat', { i, text: 'y'.repeat(200) })
    await rec.flush()
    expect(seam.calls.write).toBe(1)
    expect(rec.stats()).toMatchObject({ writes: 1, maxBatchRecords: 1000, persisted: 1000 })
    await rec.close()
    expect(readTranscript(rec.filePath)).toHaveLength(1000)
  })

  it('records arriving while a write is in flight all go out together in the next write', async () => {
    const dir = await tempDir()
    let concurrent = 0
    let maxConcurrent = 0
    // The first write is held until the test has queued everything: "in flight" is an event here, not a
    // slow disk's 30 ms that a loaded machine can outlast between two of the test's ticks.
    let writes = 0
    let firstWriteStarted!: () => void
    const started = new Promise<void>((resolve) => (firstWriteStarted = resolve))
    let releaseFirstWrite!: () => void
    const released = new Promise<void>((resolve) => (releaseFirstWrite = resolve))
    const seam = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          concurrent++
          maxConcurrent = Math.max(maxConcurrent, concurrent)
          try {
            if (writes++ === 0) {
              firstWriteStarted()
              await released
            }
            return await real(fd, buffer, offset, length)
          } finally {
            concurrent--
          }
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never' })
    await rec.ready()
    rec.record('first')
    // Once the first write is in flight, queue 50 records over several ticks, then let it finish.
    await started
    for (let i = 0; i < 50; i++) {
      rec.record('queued', { i })
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    releaseFirstWrite()
    await rec.flush()
    expect(maxConcurrent).toBe(1)
    expect(seam.calls.write).toBe(2)
    expect(rec.stats().maxBatchRecords).toBe(50)
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.type)).toEqual(['first', ...Array<string>(50).fill('queued')])
  })

  it('bounds each write: a batch larger than maxWriteBytes is split at record boundaries', async () => {
    const dir = await tempDir()
    const sizes: number[] = []
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => {
          sizes.push(length)
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', maxWriteBytes: 16 * 1024 })
    for (let i = 0; i < 200; i++) rec.record('chat', { i, text: 'z'.repeat(900) })
    await rec.close()
    expect(sizes.length).toBeGreaterThanOrEqual((200 * 1000) / (16 * 1024))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16 * 1024)
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.i)).toEqual([...Array(200).keys()])
  })

  it('a single record bigger than one write is split into bounded slices and written exactly', async () => {
    const dir = await tempDir()
    const sizes: number[] = []
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => {
          sizes.push(length)
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', maxWriteBytes: 64 * 1024 })
    // Multi-byte text too: a slice boundary must never split a character or a surrogate pair.
    const big = ('a'.repeat(1000) + 'é€😀').repeat(400)
    rec.record('before')
    const uuid = rec.record('tool_result', { output: big })
    rec.record('after')
    await rec.close()
    expect(sizes.length).toBeGreaterThan(4)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3 * 64 * 1024)
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.type)).toEqual(['before', 'tool_result', 'after'])
    expect(records[1]).toMatchObject({ uuid, output: big })
  })
})
