import fs from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder, QueueFullError } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

/** UTF-16 code units of the longest line of a transcript, newline included: "one record" of the bound. */
function longestLine(filePath: string): number {
  return Math.max(
    ...fs
      .readFileSync(filePath, 'utf8')
      .split('\n')
      .map((line) => line.length + 1),
  )
}

/** A disk whose async writes take 200 ms: the queue grows faster than it drains. */
function slowDisk() {
  return fakeFs({
    overrides: {
      write: (real) => async (fd, buffer, offset, length) => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        return real(fd, buffer, offset, length)
      },
    },
  })
}

describe('bounded memory: maxQueueBytes with an overflow policy', () => {
  it("'drain-sync' (the default) writes the queue synchronously once past the bound and loses nothing", async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', maxQueueBytes: 20_000 })
    await rec.ready()
    const uuids: string[] = []
    let peak = 0
    for (let i = 0; i < 200; i++) {
      uuids.push(rec.record('chat', { i, text: 'm'.repeat(500) }))
      peak = Math.max(peak, rec.stats().pendingChars)
    }
    const stats = rec.stats()
    expect(stats.overflowEvents).toBeGreaterThan(0)
    expect(seam.calls.writeSync).toBeGreaterThan(0)
    await rec.close()
    // The bound held after every call: the bound, plus the one record allowed past it.
    expect(peak).toBeGreaterThan(20_000)
    expect(peak).toBeLessThanOrEqual(20_000 + longestLine(rec.filePath))
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual(uuids)
    expect(new Set(records.map((r) => r.uuid)).size).toBe(200)
  })

  it("'throw' refuses the record with QueueFullError: nothing queued, chain unchanged, counted", async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', maxQueueBytes: 5_000, overflow: 'throw' })
    await rec.ready()
    const accepted: string[] = []
    let refused: unknown
    for (let i = 0; i < 50 && refused === undefined; i++) {
      try {
        accepted.push(rec.record('chat', { i, text: 'n'.repeat(500) }))
      } catch (error) {
        refused = error
      }
    }
    expect(refused).toBeInstanceOf(QueueFullError)
    expect(refused).toMatchObject({ code: 'ERR_RECORDER_QUEUE_FULL' })
    expect(rec.lastUuid).toBe(accepted.at(-1))
    expect(rec.stats()).toMatchObject({ recorded: accepted.length, overflowEvents: 1 })
    expect(seam.calls.writeSync).toBe(0)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(accepted)
  })

  it('past the bound while the disk is failing, record() refuses with a QueueFullError: the queue never outgrows the bound and nothing accepted is lost', async () => {
    const dir = await tempDir()
    let failing = true
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) =>
          failing
            ? Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))
            : real(fd, buffer, offset, length),
      },
    })
    const rec = createRecorder({ dir, fs: seam, maxQueueBytes: 2_000, onError: () => {} })
    rec.record('first')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_RECORDER_WRITE_FAILED' })
    const accepted = [rec.lastUuid]
    const refused: unknown[] = []
    for (let i = 0; i < 20; i++) {
      try {
        accepted.push(rec.record('chat', { i, text: 'o'.repeat(200) }))
      } catch (error) {
        refused.push(error)
      }
    }
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]).toBeInstanceOf(QueueFullError)
    expect(refused[0]).toMatchObject({ code: 'ERR_RECORDER_QUEUE_FULL' })
    const pending = rec.stats().pendingChars
    expect(rec.stats().pendingRecords).toBe(accepted.length)
    // A latched failure is not retried synchronously once per record().
    expect(seam.calls.writeSync).toBe(0)
    failing = false
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(accepted)
    // The bound held: what was accepted fits in it, plus the one record allowed past it.
    expect(pending).toBeLessThanOrEqual(2_000 + longestLine(rec.filePath))
  })

  it('on a slow disk with the default policy the queue never holds more than maxQueueBytes plus one record: a record that finds no room is refused (typed), none accepted is lost', async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    const bound = 64 * 1024
    const rec = createRecorder({ dir, fs: seam, maxQueueBytes: bound, onError: () => {} })
    const accepted: string[] = []
    let refused = 0
    let peak = 0
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < 100; i++) {
        try {
          accepted.push(rec.record('chat', { burst, i, text: 'm'.repeat(1000) }))
        } catch (error) {
          expect(error).toBeInstanceOf(QueueFullError)
          refused++
        }
        peak = Math.max(peak, rec.stats().pendingChars)
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    // 2 MB offered to a disk that takes 200 ms per write: without the bound all of it would be queued.
    expect(accepted.length + refused).toBe(2000)
    await rec.close()
    expect(peak).toBeLessThanOrEqual(bound + longestLine(rec.filePath))
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(accepted)
  })

  it('a record bigger than the bound is admitted on its own: the records behind it are bounded without it, so none of them needs a synchronous drain', async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    const bound = 20_000
    const rec = createRecorder({ dir, fs: seam, maxQueueBytes: bound, maxWriteBytes: 8_192 })
    await rec.ready()
    const uuids = [rec.record('chat', { text: 'a'.repeat(100) })]
    // 100,000 code units of the recorder's own text: strings under 64 Ki (longer ones are held, bounded apart).
    uuids.push(rec.record('tool_result', { output: Array.from({ length: 1_000 }, () => 'x'.repeat(100)) }))
    for (let i = 0; i < 20; i++) uuids.push(rec.record('chat', { i, text: 'b'.repeat(500) }))
    expect(rec.stats()).toMatchObject({ overflowEvents: 0, pendingRecords: 22 })
    expect(rec.stats().pendingChars).toBeGreaterThan(100_000)
    // A second record past the bound finds the first one still queued: the overflow policy applies.
    uuids.push(rec.record('tool_result', { output: 'y'.repeat(50_000) }))
    expect(rec.stats().overflowEvents).toBe(1)
    expect(seam.calls.writeSync).toBeGreaterThan(0)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })
})
