import { expect, it } from 'vitest'

import { createRecorder, QueueFullError } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

/** Waits (a few event-loop turns at most) until the recorder has issued its write. */
async function writeIssued(fs: { calls: { write: number } }): Promise<void> {
  for (let turn = 0; turn < 1000 && fs.calls.write === 0; turn++) {
    await new Promise((resolve) => setImmediate(resolve))
  }
}

// A write handed to the threadpool that has not started yet (the pool is busy with other work) cannot be
// cancelled: the process goes on, so it will run. A synchronous drain that wrote the same bytes again would
// leave those records twice in the file, the second copy after everything recorded later.
it.for(['flushSync', 'drain-sync overflow'] as const)(
  '%s while a write waits in a busy threadpool never writes its records twice',
  async (trigger) => {
    const dir = await tempDir()
    let stall = false
    const fs = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          // The threadpool is busy: the write starts well after the drain's bounded wait.
          if (stall) await new Promise((resolve) => setTimeout(resolve, 600))
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({
      dir,
      sessionId: 'busy-pool',
      fsync: 'never',
      fs,
      maxQueueBytes: 4096,
      onError: () => {},
    })
    await rec.ready()
    stall = true
    const uuids = [rec.record('event', { i: 0, text: 'x'.repeat(100) })]
    // Let the loop hand that record's write to the (stalled) threadpool (after the short read that checks
    // the file still ends as the recorder left it).
    await writeIssued(fs)
    expect(fs.calls.write).toBe(1)
    stall = false
    if (trigger === 'flushSync') {
      try {
        rec.flushSync()
      } catch {
        // Allowed: it could not write everything now. Never allowed: writing anything twice.
      }
    } else {
      // Allowed: a record refused with a QueueFullError (the queue is full and the stalled write cannot be
      // taken over). Never allowed: an accepted record written twice or lost.
      for (let i = 1; i < 40; i++) {
        try {
          uuids.push(rec.record('event', { i, text: 'y'.repeat(200) }))
        } catch (error) {
          expect(error).toBeInstanceOf(QueueFullError)
        }
      }
    }
    // The stalled write runs now (it cannot be cancelled), while the recorder is still open.
    await new Promise((resolve) => setTimeout(resolve, 700))
    uuids.push(rec.record('event', { i: 'last' }))
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  },
)

it('record() past the bound throws nothing but a QueueFullError when the file cannot even be inspected for that write', async () => {
  const dir = await tempDir()
  let stall = false
  const fs = fakeFs({
    overrides: {
      write: (real) => async (fd, buffer, offset, length) => {
        if (stall) await new Promise((resolve) => setTimeout(resolve, 300))
        return real(fd, buffer, offset, length)
      },
      fstatSync: () => () => {
        throw errno('EIO', 'fstat')
      },
    },
  })
  const rec = createRecorder({
    dir,
    sessionId: 'no-fstat',
    fsync: 'never',
    fs,
    maxQueueBytes: 4096,
    onError: () => {},
  })
  await rec.ready()
  stall = true
  const uuids = [rec.record('event', { i: 0 })]
  await writeIssued(fs)
  stall = false
  let refused = 0
  for (let i = 1; i < 40; i++) {
    try {
      uuids.push(rec.record('event', { i, text: 'y'.repeat(200) }))
    } catch (error) {
      expect(error).toBeInstanceOf(QueueFullError)
      expect((error as Error).message).toMatch(/could not be inspected|did not land/)
      refused++
    }
  }
  expect(refused).toBeGreaterThan(0)
  await rec.close()
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
})
