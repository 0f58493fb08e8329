import fs from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder, QueueFullError, RecordTooLargeError, type RecorderError } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const MiB = 1024 * 1024

function structure(items: number): object {
  return { items: Array.from({ length: items }, (_, k) => ({ k, name: `item ${k}` })) }
}

/** A disk on which the transcript does not open until `release()`: nothing is written meanwhile. */
function stalledDisk() {
  let release = (): void => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const seam = fakeFs({
    overrides: {
      open:
        (real) =>
        async (...args) => (await gate, real(...args)),
    },
  })
  return { seam, release }
}

/** Enough loop turns for the serializer (~1 ms slices) to do all it may. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('records handed over stay within the bounds', () => {
  it('the queue holds at most maxQueueBytes plus one record while the disk does not move: serializing waits for room', async () => {
    const dir = await tempDir()
    const { seam, release } = stalledDisk()
    const bound = 1 * MiB
    const rec = createRecorder({ dir, meta: false, fs: seam, maxQueueBytes: bound })
    const one = JSON.stringify(structure(50_000)).length // ≈ 1.3 MB, more than the bound
    const uuids: string[] = []
    for (let i = 0; i < 16; i++) uuids.push(rec.record('tool_result', structure(50_000), { handOver: true }))
    await turns(2_000)
    const pending = rec.stats().pendingBytes
    release()
    await rec.close()
    // One line past the bound, fifteen placeholders (an envelope each): the others wait to be serialized.
    expect(pending).toBeGreaterThan(one)
    expect(pending).toBeLessThanOrEqual(bound + one + 16 * 300)
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  }, 60_000)

  it('past an eighth of the bound a record handed over is serialized at once, like any other (a snapshot)', async () => {
    const dir = await tempDir()
    const { seam, release } = stalledDisk()
    const rec = createRecorder({ dir, meta: false, fs: seam, maxQueueBytes: 80_000 })
    for (let i = 0; i < 20; i++) rec.record('user', { text: 'x'.repeat(1_000) })
    const data = { items: [1, 2, 3] }
    rec.record('tool_result', data, { handOver: true })
    data.items.push(4)
    release()
    await rec.close()
    expect(readTranscript(rec.filePath).at(-1)).toMatchObject({ items: [1, 2, 3] })
  })

  it('maxRecordBytes: a record whose envelope alone leaves no room is refused at the call; no line written is over the limit, the error line included', async () => {
    const dir = await tempDir()
    const reported: RecorderError[] = []
    const max = 300
    const rec = createRecorder({
      dir,
      meta: false,
      maxRecordBytes: max,
      onError: (e) => void reported.push(e),
    })
    expect(() => rec.record('t'.repeat(300), { text: 'y' }, { handOver: true })).toThrow(RecordTooLargeError)
    const big = rec.record('tool_result', { text: 'x'.repeat(1_000) }, { handOver: true })
    const small = rec.record('tool_result', { text: 'fits' }, { handOver: true })
    await rec.close()
    const lines = fs.readFileSync(rec.filePath, 'utf8').split('\n').filter(Boolean)
    for (const line of lines) expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(max)
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.map((r) => r.uuid)).toEqual([big, small])
    // The message did not fit: the error line keeps its code.
    expect(records[0]!.recordError).toEqual({ code: 'ERR_RECORD_TOO_LARGE' })
    expect(records[1]).toMatchObject({ text: 'fits' })
    expect(reported.map((e) => e.code)).toEqual(['ERR_RECORD_UNSERIALIZABLE'])
  })

  it.for(['flushSync', 'record'] as const)(
    "the data's own code calling back into the recorder (a toJSON calling %s()) leaves whole lines, each record once, in order",
    async (call) => {
      const dir = await tempDir()
      const errors: unknown[] = []
      const rec = createRecorder({
        dir,
        meta: false,
        onError: (e) => void errors.push(e),
        ...(call === 'record' ? { maxQueueBytes: 4_000 } : {}),
      })
      await rec.ready()
      let called = false
      const inner: string[] = []
      const data = {
        items: Array.from({ length: 3_000 }, (_, i) => ({ i })),
        probe: {
          toJSON() {
            if (called) return 'probe'
            called = true
            try {
              if (call === 'flushSync') rec.flushSync()
              else for (let i = 0; i < 20; i++) inner.push(rec.record('log', { text: 'x'.repeat(200) }))
            } catch (error) {
              // From inside a slice the serializer cannot be re-entered: flushSync() cannot write past the
              // record being serialized, and a record() that needs room cannot make it.
              errors.push(error)
              if (call === 'record') throw error
            }
            return 'probe'
          },
        },
      }
      const first = rec.record('user', { n: 1 })
      const handed = rec.record('tool_result', data, { handOver: true })
      const after = rec.record('user', { n: 2 })
      // Let the serializer run the toJSON before close() stops accepting records.
      await turns(200)
      await rec.close()
      const records = readTranscript(rec.filePath)
      expect(records.map((r) => r.uuid)).toEqual([first, handed, after, ...inner])
      if (call === 'flushSync') {
        expect(records[1]).toMatchObject({ probe: 'probe' })
        expect((records[1]!.items as unknown[]).length).toBe(3_000)
      } else {
        // Its toJSON threw (a QueueFullError): the record handed over is written as an error record.
        expect(errors.some((e) => e instanceof QueueFullError)).toBe(true)
        expect(records[1]!.recordError).toMatchObject({ code: 'ERR_INVALID_RECORD' })
      }
    },
  )

  it('a drain behind records handed over serializes and writes them first, in order: the work record() would have done for each', async () => {
    const dir = await tempDir()
    const bound = 1 * MiB
    const seam = fakeFs()
    const rec = createRecorder({ dir, meta: false, fs: seam, maxQueueBytes: bound })
    await rec.ready()
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) uuids.push(rec.record('tool_result', structure(20_000), { handOver: true }))
    while (rec.stats().overflowEvents === 0) uuids.push(rec.record('user', { text: 'x'.repeat(1_000) }))
    expect(seam.calls.writeSync).toBeGreaterThan(0)
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual(uuids)
    for (const record of records.slice(0, 5)) expect((record.items as unknown[]).length).toBe(20_000)
  }, 60_000)
})
