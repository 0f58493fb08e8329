import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

const KiB = 1024

describe('stats().heldChars: the long strings queued records hold by reference', () => {
  it('counts the strings of 64 Ki code units or more until their records are written, and nothing else', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    await rec.ready()
    const screenshot = 'A'.repeat(100 * KiB)
    const file = 'é"'.repeat(40 * KiB)
    // Held: the two long strings (their raw code units, not the escaped text). Not held: a string just
    // under the threshold, and any number of small ones.
    rec.record('tool_result', { output: { base64: screenshot }, text: file })
    rec.record('tool_result', { output: 'x'.repeat(64 * KiB - 1) })
    for (let i = 0; i < 100; i++) rec.record('chat', { text: `turn ${i}` })
    // Nothing is written before the writer's first turn.
    const queued = rec.stats()
    expect(queued.heldChars).toBe(screenshot.length + file.length)
    expect(queued.pendingChars).toBeGreaterThan(queued.heldChars + 64 * KiB)

    await rec.flush()
    expect(rec.stats()).toMatchObject({ heldChars: 0, pendingChars: 0, pendingRecords: 0 })
    await rec.close()
  })

  it('counts a record handed over once it is walked: its data is not read before', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    await rec.ready()
    rec.record('tool_result', { output: 'B'.repeat(200 * KiB) }, { handOver: true })
    expect(rec.stats().heldChars).toBe(0)
    rec.record('tool_result', { output: 'C'.repeat(100 * KiB) })
    expect(rec.stats().heldChars).toBe(100 * KiB)
    await rec.flush()
    expect(rec.stats().heldChars).toBe(0)
    await rec.close()
  })
})
