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

/** Enough loop turns for the serializer (~1 ms slices) to do all it may. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('records handed over stay within the bounds', () => {
  it('the queue holds at most maxQueueChars plus one record while a slow disk writes: one line handed over exists at a time', async () => {
    const dir = await tempDir()
    // Every write takes 20 ms: the disk, not the serializer, sets the pace.
    const seam = fakeFs({
      overrides: {
        write:
          (real) =>
          async (...args) => (await new Promise((resolve) => setTimeout(resolve, 20)), real(...args)),
      },
    })
    const bound = 1 * MiB
    const rec = createRecorder({ dir, meta: false, fs: seam, maxQueueChars: bound })
    const one = JSON.stringify(structure(50_000)).length // ≈ 1.3 MB, more than the bound
    const uuids: string[] = []
    for (let i = 0; i < 8; i++) uuids.push(rec.record('tool_result', structure(50_000), { handOver: true }))
    let most = 0
    const sampler = setInterval(() => (most = Math.max(most, rec.stats().pendingChars)), 1)
    await rec.close()
    clearInterval(sampler)
    // One line past the bound at most, the others still envelopes waiting for their walk (~300 each).
    expect(most).toBeGreaterThan(one)
    expect(most).toBeLessThanOrEqual(bound + one + 8 * 300)
    expect(seam.calls.writeSync).toBe(0)
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  }, 60_000)

  it('an envelope key added to the data after record() returned is refused when it is serialized: the error record is written instead', async () => {
    const dir = await tempDir()
    const reported: RecorderError[] = []
    const rec = createRecorder({ dir, meta: false, onError: (e) => void reported.push(e) })
    const parent = rec.record('user', { text: 'hi' })
    const data: Record<string, unknown> = { text: 'tool output' }
    const handed = rec.record('tool_result', data, { handOver: true })
    data.uuid = 'forged'
    data.parentUuid = null
    const after = rec.record('user', { text: 'next' })
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual([parent, handed, after])
    expect(records[1]).toMatchObject({ parentUuid: parent, type: 'tool_result' })
    expect(records[1]!.recordError).toMatchObject({ code: 'ERR_INVALID_RECORD' })
    expect(records[1]).not.toHaveProperty('text')
    expect(records[2]!.parentUuid).toBe(handed)
    expect(reported.map((e) => e.code)).toEqual(['ERR_RECORD_UNSERIALIZABLE'])
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
        ...(call === 'record' ? { maxQueueChars: 4_000 } : {}),
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
      // Let the walk run the toJSON before close() stops accepting records: it runs once the records ahead
      // of it are written (the disk's pace, not a number of turns).
      const until = Date.now() + 20_000
      while (!called && Date.now() < until) await turns(1)
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
    const rec = createRecorder({ dir, meta: false, fs: seam, maxQueueChars: bound })
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
