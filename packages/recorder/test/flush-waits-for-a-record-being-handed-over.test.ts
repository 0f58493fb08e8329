import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('flush() while a record handed over is being serialized', () => {
  it('resolves once that record and the ones after it are written, without polling the file meanwhile', async () => {
    const dir = await tempDir()
    const fs = fakeFs()
    const rec = createRecorder({ dir, meta: false, fs })
    await rec.ready()
    rec.record('user', { a: 1 })
    rec.record(
      'tool_result',
      { items: Array.from({ length: 1_000_000 }, (_, k) => ({ k })) },
      { handOver: true },
    )
    rec.record('user', { b: 2 })
    fs.resetCounts()
    const watermark = await rec.flush()
    expect(watermark.count).toBe(3)
    // Serializing takes hundreds of 1 ms slices: a loop that re-ran while it waits would show here.
    const { write, fstat, lstat, fdatasync } = fs.calls
    expect(write + fstat + lstat + fdatasync).toBeLessThan(100)
    await rec.close()
  }, 60_000)
})
