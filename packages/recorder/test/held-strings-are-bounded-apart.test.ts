import { describe, expect, it } from 'vitest'

import { createRecorder, QueueFullError } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const KiB = 1024

/** A disk whose async writes take 50 ms: big records pile up behind it. */
function slowDisk() {
  return fakeFs({
    overrides: {
      write: (real) => async (fd, buffer, offset, length) => {
        await new Promise((resolve) => setTimeout(resolve, 50))
        return real(fd, buffer, offset, length)
      },
    },
  })
}

/** A tool result whose size is in one string of `chars` code units (held by reference: 64 Ki or more). */
function toolResult(i: number, chars: number): Record<string, unknown> {
  return { toolUseId: `tool-${i}`, output: String(i % 10).repeat(chars) }
}

describe('strings held by reference are the caller’s memory, bounded apart (maxHeldChars)', () => {
  it('a backlog of big strings far past maxQueueChars makes record() write nothing synchronously', async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    // The recorder's own text is bounded at 64 Ki; the strings held add up to 2.5 Mi.
    const rec = createRecorder({ dir, fs: seam, meta: false, maxQueueChars: 64 * KiB })
    await rec.ready()
    const uuids: string[] = []
    for (let i = 0; i < 20; i++) {
      uuids.push(rec.record('tool_result', toolResult(i, 128 * KiB)))
      uuids.push(rec.record('chat', { text: `turn ${i}` }))
    }
    expect(rec.stats()).toMatchObject({ overflowEvents: 0 })
    expect(rec.stats().pendingChars).toBeGreaterThan(20 * 128 * KiB)
    await rec.close()
    expect(seam.calls.writeSync).toBe(0)
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  }, 30_000)

  it("past maxHeldChars the overflow policy applies: 'throw' refuses, nothing accepted is lost", async () => {
    const dir = await tempDir()
    const seam = slowDisk()
    const rec = createRecorder({ dir, fs: seam, meta: false, maxHeldChars: 300 * KiB, overflow: 'throw' })
    await rec.ready()
    const uuids = [rec.record('tool_result', toolResult(0, 128 * KiB))]
    uuids.push(rec.record('tool_result', toolResult(1, 128 * KiB)))
    const last = rec.lastUuid
    expect(() => rec.record('tool_result', toolResult(2, 128 * KiB))).toThrow(QueueFullError)
    expect(rec.lastUuid).toBe(last)
    expect(rec.stats().overflowEvents).toBe(1)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('a record whose held strings alone exceed maxHeldChars is refused at the call, typed, changing nothing', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false, maxHeldChars: 100 * KiB })
    const first = rec.record('chat', { text: 'hi' })
    let thrown: unknown
    try {
      rec.record('tool_result', toolResult(0, 128 * KiB))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(QueueFullError)
    expect((thrown as QueueFullError).code).toBe('ERR_RECORDER_QUEUE_FULL')
    expect((thrown as Error).message).toMatch(/more than maxHeldChars \(102400\)/)
    expect(rec.lastUuid).toBe(first)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first])
  })

  it('maxQueueBytes is the deprecated name of maxQueueChars: accepted alone, refused beside it', async () => {
    const dir = await tempDir()
    expect(() => createRecorder({ dir, maxQueueBytes: 0 })).toThrow(/`maxQueueBytes`/)
    expect(() => createRecorder({ dir, maxQueueChars: 1024, maxQueueBytes: 1024 })).toThrow(TypeError)
    expect(() => createRecorder({ dir, maxHeldChars: -1 })).toThrow(/`maxHeldChars`/)
    const rec = createRecorder({ dir, meta: false, maxQueueBytes: 2_000, overflow: 'throw', lock: false })
    await rec.ready()
    expect(() => {
      for (let i = 0; i < 100; i++) rec.record('chat', { text: 'x'.repeat(100) })
    }).toThrow(QueueFullError)
    await rec.close()
  })
})
