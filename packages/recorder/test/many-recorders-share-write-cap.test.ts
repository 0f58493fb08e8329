import { afterEach, expect, it } from 'vitest'

import { createRecorder, getMaxConcurrentWrites, setMaxConcurrentWrites } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const defaultCap = getMaxConcurrentWrites()
afterEach(() => setMaxConcurrentWrites(defaultCap))

it('defaults to half of the libuv threadpool, at least one', () => {
  const pool = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
  expect(defaultCap).toBe(Math.max(1, Math.floor(pool / 2)))
  expect(() => setMaxConcurrentWrites(0)).toThrow(TypeError)
})

it.for([2, 3])(
  'a hundred recorders in one process never have more than the cap (%i) of file-system calls in flight',
  async (cap) => {
    setMaxConcurrentWrites(cap)
    const dir = await tempDir()
    // One shared seam with slow calls, so that calls would pile up without the cap.
    const seam = fakeFs({ delayMs: 2 })
    const recorders = Array.from({ length: 100 }, (_, n) =>
      createRecorder({ dir, sessionId: `agent-${n}`, fs: seam, lock: false, meta: false, fsync: 'never' }),
    )
    for (const [n, rec] of recorders.entries()) for (let i = 0; i < 5; i++) rec.record('event', { n, i })
    await Promise.all(recorders.map((rec) => rec.close()))
    expect(seam.maxInFlight).toBeLessThanOrEqual(cap)
    expect(seam.maxInFlight).toBe(cap)
    for (const rec of recorders) expect(readTranscript(rec.filePath)).toHaveLength(5)
  },
)
