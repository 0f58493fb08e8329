import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, RecorderError, type RecorderError as RecorderErrorType } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('failures are never silent and never poison the session', () => {
  it('ENOSPC: records stay queued in order, onError gets a stable code and the cause, flush rejects with the count, and writing resumes with no gap', async () => {
    const dir = await tempDir()
    let diskFull = false
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) =>
          diskFull ? Promise.reject(errno('ENOSPC')) : real(fd, buffer, offset, length),
      },
    })
    const errors: RecorderErrorType[] = []
    const rec = createRecorder({ dir, fs: seam, onError: (error) => errors.push(error) })
    const uuids = [rec.record('a'), rec.record('b')]
    await rec.flush()

    diskFull = true
    for (let i = 0; i < 5; i++) uuids.push(rec.record('while-full', { i }))
    const rejected = await rec.flush().catch((error: unknown) => error)
    expect(rejected).toBeInstanceOf(RecorderError)
    expect(rejected).toMatchObject({
      code: 'ERR_RECORDER_WRITE_FAILED',
      unwrittenRecords: 5,
      sessionId: rec.sessionId,
    })
    expect((rejected as Error).message).toMatch(/5 record\(s\)/)
    expect(errors[0]).toMatchObject({ code: 'ERR_RECORDER_WRITE_FAILED', cause: { code: 'ENOSPC' } })
    // It keeps retrying on its own, reporting each failed attempt.
    await until(() => errors.length >= 3, 'three reported attempts')
    expect(rec.stats()).toMatchObject({ pendingRecords: 5, persisted: 2 })
    expect(rec.stats().errors).toBeGreaterThanOrEqual(3)
    // The chain was not rolled back: the queued records will be written, so new ones continue from them.
    uuids.push(rec.record('still-accepted'))

    diskFull = false
    await expect(rec.flush()).resolves.toEqual({ uuid: uuids.at(-1), count: 8 })
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual(uuids)
    expect(records.map((r) => r.parentUuid)).toEqual([null, ...uuids.slice(0, -1)])
  })

  it('a partial write followed by a failure continues from the right byte once the cause clears', async () => {
    const dir = await tempDir()
    let step = 0
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => {
          step++
          if (step === 1) return real(fd, buffer, offset, Math.floor(length / 3))
          if (step <= 3) return Promise.reject(errno('EIO'))
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, onError: () => {} })
    const uuids = Array.from({ length: 10 }, (_, i) => rec.record('chat', { i, text: 'w'.repeat(100) }))
    await expect(rec.flush()).rejects.toMatchObject({
      code: 'ERR_RECORDER_WRITE_FAILED',
      cause: { code: 'EIO' },
    })
    await until(() => rec.stats().persisted === 10, 'the retried write')
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('a failed mkdir is not remembered: the next attempt creates the directory', async () => {
    const root = await tempDir()
    const dir = path.join(root, 'nested', 'sessions')
    let mkdirFailures = 2
    const seam = fakeFs({
      overrides: {
        mkdir: (real) => (target, mode) =>
          mkdirFailures-- > 0 ? Promise.reject(errno('EACCES', 'mkdir')) : real(target, mode),
        mkdirSync: () => () => {
          throw errno('EACCES', 'mkdir')
        },
      },
    })
    const codes: string[] = []
    const rec = createRecorder({ dir, fs: seam, onError: (error) => codes.push(error.code) })
    const uuid = rec.record('event')
    await until(() => rec.stats().persisted === 1, 'the record after the mkdir retries')
    expect(codes.slice(0, 2)).toEqual(['ERR_RECORDER_DIR_FAILED', 'ERR_RECORDER_DIR_FAILED'])
    expect(seam.calls.mkdir).toBe(3)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([uuid])
  })

  it('real case: the directory is removed, then recreated — writing resumes in a new transcript, in order', async () => {
    const root = await tempDir()
    const dir = path.join(root, 'sessions')
    const codes: string[] = []
    // Check the path before every write, so not a record goes into the unlinked file.
    const rec = createRecorder({
      dir,
      lock: false,
      fileCheckIntervalMs: 0,
      onError: (error) => codes.push(error.code),
    })
    const before = rec.record('before')
    await rec.flush()

    await fs.rm(dir, { recursive: true })
    const during = rec.record('after-removal')
    await rec.flush()
    expect(codes).toContain('ERR_TRANSCRIPT_REPLACED')
    const after = rec.record('after')
    await rec.close()

    // The old file went with the directory, and with it `before`, which flush() had confirmed at the path;
    // the recreated file holds everything recorded after that, in order, the chain continuing from `before`.
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual([during, after])
    expect(records.map((r) => r.parentUuid)).toEqual([before, during])
  })

  it('EBADF (our descriptor closed under us): the transcript is opened again and the records follow', async () => {
    const dir = await tempDir()
    let badOnce = true
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) => {
          if (badOnce) {
            badOnce = false
            return Promise.reject(errno('EBADF'))
          }
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, onError: () => {} })
    await rec.ready()
    const uuids = [rec.record('a'), rec.record('b')]
    await expect(rec.flush()).rejects.toMatchObject({
      code: 'ERR_RECORDER_WRITE_FAILED',
      cause: { code: 'EBADF' },
    })
    await until(() => rec.stats().persisted === 2, 'the write after reopening')
    // Opened twice: made at first (one O_EXCL open), then found again after EBADF (an O_EXCL open that finds
    // it there, then the open that takes it).
    expect(seam.calls.open).toBe(3)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('without onError the first failure of an episode becomes a process warning (never silent)', async () => {
    const dir = await tempDir()
    let failing = true
    const seam = fakeFs({
      overrides: {
        write: (real) => (fd, buffer, offset, length) =>
          failing ? Promise.reject(errno('EIO')) : real(fd, buffer, offset, length),
      },
    })
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const rec = createRecorder({ dir, fs: seam })
      rec.record('a')
      await expect(rec.flush()).rejects.toBeInstanceOf(RecorderError)
      await until(() => warnings.length > 0, 'a warning')
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatchObject({ code: 'ERR_RECORDER_WRITE_FAILED' })
      failing = false
      await rec.close()
    } finally {
      process.off('warning', onWarning)
    }
  })
})
