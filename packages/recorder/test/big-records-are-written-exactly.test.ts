import fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

import { createRecorder, RecordTooLargeError } from '../src/index.js'
import { bigPayload, expectedLine, rawLines } from './helpers/big-payloads.js'
import { fakeFs } from './helpers/fake-fs.js'
import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

/** A file system that keeps a copy of every buffer written. */
function recordingWrites() {
  const writes: Buffer[] = []
  const seam = fakeFs({
    overrides: {
      write: (real) => (fd, buffer, offset, length) => {
        writes.push(Buffer.from(buffer.subarray(offset, offset + length)))
        return real(fd, buffer, offset, length)
      },
    },
  })
  return { seam, writes }
}

/** Every line is exactly envelope + JSON.stringify(data), and each record's parent is the one before. */
function expectExact(filePath: string, datas: readonly object[]): void {
  const lines = rawLines(filePath)
  expect(lines).toHaveLength(datas.length)
  let parent: unknown = null
  lines.forEach((line, i) => {
    const record = JSON.parse(line) as Record<string, unknown>
    expect(record.parentUuid).toBe(parent)
    parent = record.uuid
    // Compared as strings, not as parsed objects: escapes, key order and -0 must all be JSON.stringify's.
    expect(line === expectedLine(record, datas[i]!), `line ${i + 1} differs`).toBe(true)
  })
}

describe('records holding big strings (escaped as they are written)', () => {
  it.for([
    ['default writes', {}],
    ['writes of 16 KiB', { maxWriteBytes: 16 * 1024 }],
    ['writes of 1 KiB', { maxWriteBytes: 1024 }],
  ] as const)(
    'are written byte for byte as JSON.stringify writes them, in order (%s)',
    async ([, options]) => {
      const dir = await tempDir()
      const rec = createRecorder({ dir, meta: false, ...options })
      const datas: object[] = []
      for (let i = 0; i < 8; i++) {
        const data = i % 3 === 1 ? bigPayload(i, 100_000 + i * 50_000) : { i, text: 'small' }
        datas.push(data)
        rec.record('tool_result', data)
      }
      await rec.close()
      expectExact(rec.filePath, datas)
    },
  )

  it('are written a bounded slice per write, on their own, whatever maxWriteBytes allows', async () => {
    const dir = await tempDir()
    const { seam, writes } = recordingWrites()
    // 9 M characters of text (held: strings of 64 Ki or more) that escapes to more than it is long, with the default
    // 4 MiB writes allowed.
    const data = bigPayload(7, 9_000_000)
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false })
    rec.record('before', { small: 1 })
    rec.record('tool_result', data)
    rec.record('after', { small: 2 })
    await rec.close()
    const lines = rawLines(rec.filePath)
    // The small records around it are not batched with it: one write each, before and after its slices.
    expect(writes[0]!.toString()).toBe(lines[0])
    expect(writes.at(-1)!.toString()).toBe(lines[2])
    const slices = writes.slice(1, -1)
    expect(Buffer.concat(slices).toString()).toBe(lines[1])
    // Slices that end at the turn's CPU budget, at most maxWriteBytes (4 Mi) code units each, 6 bytes at most
    // per unit once escaped: never the whole record at once.
    expect(slices.length).toBeGreaterThanOrEqual(Math.ceil(9_000_000 / (4 * 1024 * 1024)))
    for (const slice of slices) expect(slice.length).toBeLessThanOrEqual(6 * 4 * 1024 * 1024)
    expectExact(rec.filePath, [{ small: 1 }, data, { small: 2 }])
    // 21 M code units written a turn's budget at a time, each copied by the recording fs: 15 s at load 20 on
    // the 2-core VM, 70 s at load 25.
  }, 180_000)

  it.for([
    ['20 strings of 64 Ki are held: the record is written alone, in slices', 20, 64 * 1024, true],
    ['one string of 64 Ki is held too: there is one threshold, not a total', 1, 64 * 1024, true],
    ['200 strings of 60,000 units (under 64 Ki each) are not, whatever their total', 200, 60_000, false],
  ] as const)('strings of 64 Ki code units or more: %s', async ([, count, length, held]) => {
    const dir = await tempDir()
    const { seam, writes } = recordingWrites()
    const rec = createRecorder({
      dir,
      fs: seam,
      fsync: 'never',
      meta: false,
      maxWriteBytes: 64 * 1024 * 1024,
    })
    await rec.ready()
    const data = { parts: Array.from({ length: count }, (_, i) => `${i}:`.padEnd(length, 'é"')) }
    rec.record('before', { small: 1 })
    rec.record('tool_result', data)
    rec.record('after', { small: 2 })
    await rec.close()
    const lines = rawLines(rec.filePath)
    if (held) {
      expect(writes[0]!.toString()).toBe(lines[0])
      expect(writes.at(-1)!.toString()).toBe(lines[2])
      expect(Buffer.concat(writes.slice(1, -1)).toString()).toBe(lines[1])
    } else {
      expect(writes.map((w) => w.toString())).toEqual([lines.join('')])
    }
    expectExact(rec.filePath, [{ small: 1 }, data, { small: 2 }])
  })

  it('are a snapshot: changing the data after record() changes nothing written', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    const data = bigPayload(1)
    const expected = structuredClone(data)
    rec.record('tool_result', data)
    const content = data.content as Array<{ text: string } | undefined>
    content[0]!.text = 'replaced'
    content.push({ text: 'x'.repeat(100_000) })
    ;(data.output as Record<string, unknown>).base64 = 'gone'
    data.extra = 'added'
    await new Promise((resolve) => setImmediate(resolve))
    await rec.close()
    expectExact(rec.filePath, [expected])
  })

  it('are written whole by flushSync() and by the overflow policy, synchronously', async () => {
    const dir = await tempDir()
    // The held strings' bound holds about one big record: each further record makes room by writing
    // synchronously.
    const rec = createRecorder({
      dir,
      meta: false,
      maxHeldChars: 1_000_000,
      overflow: 'drain-sync',
      maxWriteBytes: 64 * 1024,
    })
    await rec.ready()
    const datas = [bigPayload(0), bigPayload(1), { small: true }, bigPayload(2)]
    for (const data of datas) rec.record('tool_result', data)
    expect(rec.stats().overflowEvents).toBeGreaterThan(0)
    rec.flushSync()
    expectExact(rec.filePath, datas)
    await rec.close()
    expectExact(rec.filePath, datas)
  })

  it('are written whole by the exit drain when the process exits right after record()', async () => {
    const dir = await tempDir()
    const result = await runFixture('exit-with-a-big-record', [dir, 'big-exit'])
    expect(result.code).toBe(0)
    const datas = [0, 1, 2, 3, 4, 5].map((i) => (i % 2 === 0 ? { i } : bigPayload(i, 700_000)))
    expectExact(`${dir}/big-exit.jsonl`, datas)
  })
})

describe('maxRecordBytes with big strings', () => {
  const text = 'a"\u00e9'.repeat(30_000) // 90,000 code units, 150,000 bytes once escaped and encoded
  const line = (rec: { filePath: string }) => fs.readFileSync(rec.filePath)

  it('keeps the limit exact: a record of exactly the limit is written, one byte more is refused', async () => {
    // The same session id in two directories: the same envelope size.
    const probe = createRecorder({ dir: await tempDir(), sessionId: 'limited', meta: false })
    probe.record('chat', { text })
    await probe.close()
    const size = line(probe).length

    const rec = createRecorder({
      dir: await tempDir(),
      sessionId: 'limited',
      meta: false,
      maxRecordBytes: size,
    })
    const kept = rec.record('chat', { text })
    const error = (() => {
      try {
        rec.record('chat', { text: `${text}x` })
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(RecordTooLargeError)
    expect(error).toMatchObject({ code: 'ERR_RECORD_TOO_LARGE', maxRecordBytes: size })
    expect((error as RecordTooLargeError).bytes).toBeGreaterThan(size)
    expect(rec.lastUuid).toBe(kept)
    await rec.close()
    expect(line(rec).length).toBe(size)
  })

  it('refuses a record whose big strings alone are over the limit, without escaping them', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false, maxRecordBytes: 64 * 1024 })
    expect(() => rec.record('chat', { text: 'b'.repeat(100_000) })).toThrow(RecordTooLargeError)
    await rec.close()
    expect(fs.existsSync(rec.filePath) ? line(rec).length : 0).toBe(0)
  })
})
