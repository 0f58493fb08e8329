import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('partial writes are continued from the right byte; EAGAIN/EBUSY/EINTR are retried', () => {
  it('a file system that accepts at most 97 bytes per write still gets every byte, once, in order', async () => {
    const dir = await tempDir()
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => real(fd, buffer, offset, Math.min(length, 97)),
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never' })
    const uuids = Array.from({ length: 40 }, (_, i) => rec.record('chat', { i, text: 'ü'.repeat(i * 7) }))
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
    expect(seam.calls.write).toBeGreaterThan(40)
  })

  it.for(['EAGAIN', 'EBUSY', 'EINTR'])('%s is retried quietly with a bounded backoff', async (code) => {
    const dir = await tempDir()
    let failures = 3
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => {
          if (failures-- > 0) return Promise.reject(errno(code))
          return real(fd, buffer, offset, length)
        },
      },
    })
    const errors: unknown[] = []
    const rec = createRecorder({ dir, fs: seam, onError: (error) => errors.push(error) })
    const uuids = [rec.record('a'), rec.record('b')]
    await expect(rec.flush()).resolves.toEqual({ uuid: uuids[1], count: 2 })
    expect(errors).toEqual([])
    expect(rec.stats().retries).toBe(3)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('a transient error that never clears becomes a reported failure, not an endless spin', async () => {
    const dir = await tempDir()
    let failing = true
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) =>
          failing ? Promise.reject(errno('EAGAIN')) : real(fd, buffer, offset, length),
      },
    })
    const codes: string[] = []
    const rec = createRecorder({ dir, fs: seam, onError: (error) => codes.push(error.code) })
    const uuid = rec.record('a')
    await expect(rec.flush()).rejects.toMatchObject({
      code: 'ERR_RECORDER_WRITE_FAILED',
      unwrittenRecords: 1,
    })
    expect(codes[0]).toBe('ERR_RECORDER_WRITE_FAILED')
    failing = false
    await expect(rec.flush()).resolves.toEqual({ uuid, count: 1 })
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([uuid])
  })

  it('a write that accepts zero bytes is not retried forever', async () => {
    const dir = await tempDir()
    let zero = true
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) =>
          zero ? Promise.resolve(0) : real(fd, buffer, offset, length),
      },
    })
    const rec = createRecorder({ dir, fs: seam, onError: () => {} })
    rec.record('a')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_RECORDER_WRITE_FAILED' })
    zero = false
    await rec.close()
    expect(readTranscript(rec.filePath)).toHaveLength(1)
  })
})
