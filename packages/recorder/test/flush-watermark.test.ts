import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('flush() resolves to the persistence watermark', () => {
  it('resolves at once on a fresh recorder, to an empty watermark', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir })
    await expect(rec.flush()).resolves.toEqual({ uuid: null, count: 0 })
    expect(rec.persisted).toEqual({ uuid: null, count: 0 })
    expect(rec.persistedUuid).toBeNull()
  })

  it('resolves once everything accepted before the call is on disk, to the last persisted uuid and count', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir })
    let last = ''
    for (let i = 0; i < 300; i++) last = rec.record('event', { i })
    const flushed = rec.flush()
    const watermark = await flushed
    expect(watermark).toEqual({ uuid: last, count: 300 })
    expect(rec.persistedUuid).toBe(last)
    expect(rec.persisted).toEqual(watermark)
    // Everything the watermark covers is readable now, before close().
    const records = readTranscript(rec.filePath)
    expect(records).toHaveLength(300)
    expect(records.at(-1)!.uuid).toBe(last)
  })

  it('an idle recorder resolves at once, with the same watermark', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir, fsync: 'never' })
    const uuid = rec.record('event')
    const first = await rec.flush()
    const writes = rec.stats().writes
    const second = await rec.flush()
    expect(second).toEqual(first)
    expect(first).toEqual({ uuid, count: 1 })
    expect(rec.stats().writes).toBe(writes)
  })

  it('concurrent flushes each resolve to a watermark covering their own records', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir })
    const a = rec.record('event', { n: 1 })
    const first = rec.flush()
    const b = rec.record('event', { n: 2 })
    const second = rec.flush()
    const [w1, w2] = await Promise.all([first, second])
    expect(w1.count).toBeGreaterThanOrEqual(1)
    expect([a, b]).toContain(w1.uuid)
    expect(w2).toEqual({ uuid: b, count: 2 })
  })
})
