import { describe, expect, it, vi } from 'vitest'

import {
  createRecorder,
  InvalidRecordError,
  type RecorderError,
  readSession,
  RecordTooLargeError,
} from '../src/index.js'
import { ENVELOPE_FIELDS } from '../src/format/record-format.js'
import { bigPayload, expectedLine, rawLines } from './helpers/big-payloads.js'
import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

/** Shapes a tool result takes: many small objects, one flat object with many keys, big strings, toJSON. */
function payloads(): object[] {
  const flat: Record<string, unknown> = {}
  for (let i = 0; i < 3_000; i++) flat[i % 7 === 0 ? String(i) : `k${i}`] = i % 3 === 0 ? `v${i}` : i
  return [
    {
      items: Array.from({ length: 5_000 }, (_, i) => ({
        id: i,
        name: `item ${i} « é » "q" \\`,
        ok: i % 2 === 0,
        tags: ['a', undefined, i],
        at: new Date(i * 1000),
      })),
    },
    { output: flat, ['__proto__']: 'a key, not a prototype' },
    bigPayload(1, 600_000),
    {
      nested: { toJSON: (key: string) => ({ key, inner: { toJSON: () => 'not called twice' } }) },
      wrapped: [new Number(-0), new String('s'), new Boolean(false)],
      skipped: undefined,
      fn: () => 1,
      nan: Number.NaN,
    },
    {},
  ]
}

function lineOf(filePath: string, index: number): string {
  return rawLines(filePath)[index]!
}

describe('record(type, data, { handOver: true }): serialized later, a slice at a time', () => {
  it('writes each record byte for byte as JSON.stringify, in order, with the chain moved at the call', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'handed', meta: false })
    const datas = payloads()
    const uuids: string[] = []
    for (const [i, data] of datas.entries()) {
      const uuid = rec.record('tool_result', data, { handOver: true })
      // The uuid and the chain are there at once, as for any record.
      expect(rec.lastUuid).toBe(uuid)
      uuids.push(uuid)
      uuids.push(rec.record('assistant', { i }))
    }
    await rec.close()
    const lines = rawLines(rec.filePath)
    expect(lines).toHaveLength(uuids.length)
    let parent: unknown = null
    lines.forEach((line, i) => {
      const record = JSON.parse(line) as Record<string, unknown>
      expect(record.uuid).toBe(uuids[i])
      expect(record.parentUuid).toBe(parent)
      parent = record.uuid
      const data = i % 2 === 0 ? datas[i / 2]! : { i: (i - 1) / 2 }
      expect(line === expectedLine(record, data), `line ${i + 1} differs from JSON.stringify`).toBe(true)
    })
  })

  it('copies nothing at the call: the data is read later, not inside record()', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    let reads = 0
    const items = Array.from({ length: 2_000 }, (_, i) => ({
      get value() {
        reads++
        return i
      },
    }))
    rec.record('tool_result', { items }, { handOver: true })
    expect(reads).toBe(0)
    await rec.flush()
    expect(reads).toBeGreaterThanOrEqual(2_000)
    await rec.close()
    expect((JSON.parse(lineOf(rec.filePath, 0)) as { items: unknown[] }).items).toHaveLength(2_000)
  })

  it('what can be told at the call throws there: nothing is queued and the chain does not move', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    const first = rec.record('user', { text: 'hi' })
    const bad: Array<[unknown, unknown]> = [
      [[1, 2], { handOver: true }],
      [{ uuid: 'mine' }, { handOver: true }],
      [{ a: 1 }, { handOver: 'yes' }],
      [{ toJSON: () => 'not an object' }, { handOver: true }],
    ]
    for (const [data, options] of bad) {
      expect(() => rec.record('tool_result', data as object, options as { handOver: boolean })).toThrow(
        InvalidRecordError,
      )
    }
    expect(rec.lastUuid).toBe(first)
    expect(rec.stats().recorded).toBe(1)
    await rec.close()
    expect(rawLines(rec.filePath)).toHaveLength(1)
  })

  it.for([
    ['a cycle', () => ({ self: null as unknown }), 'ERR_INVALID_RECORD'],
    ['a BigInt', () => ({ items: [{ n: 1n }] }), 'ERR_INVALID_RECORD'],
    [
      'a throwing getter',
      () => ({
        deep: {
          get boom() {
            throw new Error('getter failed')
          },
        },
      }),
      'ERR_INVALID_RECORD',
    ],
  ] as const)(
    'data that turns out unserializable (%s) is reported through onError and written as an error record: the chain holds',
    async ([, make, causeCode]) => {
      const dir = await tempDir()
      const reported: RecorderError[] = []
      const rec = createRecorder({
        dir,
        sessionId: 'broken',
        meta: false,
        onError: (e) => void reported.push(e),
      })
      const data = make() as Record<string, unknown>
      if ('self' in data) data.self = data
      const before = rec.record('user', { text: 'hi' })
      const broken = rec.record('tool_result', data, { handOver: true })
      const after = rec.record('assistant', { text: 'next' })
      await rec.close()
      const records = rawLines(rec.filePath).map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(records.map((r) => r.uuid)).toEqual([before, broken, after])
      expect(records[1]).toMatchObject({
        parentUuid: before,
        type: 'tool_result',
        recordError: { code: causeCode },
      })
      expect(Object.keys(records[1]!)).toEqual([...ENVELOPE_FIELDS, 'recordError'])
      expect(records[2]!.parentUuid).toBe(broken)
      expect(reported).toHaveLength(1)
      expect(reported[0]).toMatchObject({ code: 'ERR_RECORD_UNSERIALIZABLE' })
      expect(reported[0]!.cause).toBeInstanceOf(InvalidRecordError)
      // Readers see a whole, linked session.
      const session = await readSession(rec.filePath)
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => r.uuid)).toEqual([before, broken, after])
    },
  )

  it('maxRecordBytes applies once serialized: a record over it is written as an error record (ERR_RECORD_TOO_LARGE)', async () => {
    const dir = await tempDir()
    const reported: RecorderError[] = []
    const rec = createRecorder({
      dir,
      meta: false,
      maxRecordBytes: 10_000,
      onError: (e) => void reported.push(e),
    })
    const big = rec.record(
      'tool_result',
      { items: Array.from({ length: 2_000 }, (_, i) => ({ i })) },
      { handOver: true },
    )
    const small = rec.record('tool_result', { items: [1, 2, 3] }, { handOver: true })
    await rec.close()
    const records = rawLines(rec.filePath).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records[0]).toMatchObject({ uuid: big, recordError: { code: 'ERR_RECORD_TOO_LARGE' } })
    expect(records[1]).toMatchObject({ uuid: small, parentUuid: big, items: [1, 2, 3] })
    expect(reported.map((e) => e.code)).toEqual(['ERR_RECORD_UNSERIALIZABLE'])
    expect(reported[0]!.cause).toBeInstanceOf(RecordTooLargeError)
  })

  it('flushSync() serializes and writes a record handed over now, synchronously', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    await rec.ready()
    const data = { items: Array.from({ length: 20_000 }, (_, i) => ({ i, s: `s${i}` })) }
    rec.record('tool_result', data, { handOver: true })
    rec.flushSync()
    const line = lineOf(rec.filePath, 0)
    expect(line === expectedLine(JSON.parse(line) as Record<string, unknown>, data)).toBe(true)
    await rec.close()
  })

  it('with a redact hook, handOver has no effect: the hook gets its copy at the call, as always', async () => {
    const dir = await tempDir()
    const rec = createRecorder({
      dir,
      meta: false,
      redact: (record) => ({ ...record, secret: '[redacted]' }),
    })
    const data = { secret: 'hunter2', n: 1 }
    rec.record('tool_result', data, { handOver: true })
    data.n = 2
    await rec.close()
    expect(JSON.parse(lineOf(rec.filePath, 0))).toMatchObject({ secret: '[redacted]', n: 1 })
  })

  it('at exit, the records ahead of one handed over are written first, whatever serializing it costs', async () => {
    const dir = await tempDir()
    const result = await runFixture('exit-behind-a-handed-over-record', [dir, 'behind'])
    expect(result.code).toBe(0)
    const ahead = JSON.parse(result.stdout) as string[]
    const records = rawLines(`${dir}/behind.jsonl`).map((line) => JSON.parse(line) as Record<string, unknown>)
    // The 1,000 records ahead of it are there; it and the one after it could not be serialized within
    // exitDrainMs (200 ms) and are reported lost, not written half.
    // Quiet, all 1,000 fit in the 200 ms; on a loaded machine the bound ends the drain earlier. Either way what
    // is written is the records ahead, in order, never the two behind, and the rest is reported with its count.
    const written = records.map((r) => r.uuid)
    expect(written).toEqual(ahead.slice(0, written.length))
    const lost = Number(/ERR_RECORDER_EXIT_UNWRITTEN[^\n]*?(\d+) record\(s\)/.exec(result.stderr)?.[1])
    expect(lost).toBe(ahead.length + 2 - written.length)
    // Reported once, though the drain runs from the 'exit' listener and from process.reallyExit.
    expect(result.stderr.match(/ERR_RECORDER_EXIT_UNWRITTEN/g)).toHaveLength(1)
  })

  it('a process that exits right after record() still writes every record handed over, in order', async () => {
    const dir = await tempDir()
    const result = await runFixture('exit-with-handed-over-records', [dir, 'exiting'])
    expect(result.code).toBe(0)
    const expected = JSON.parse(result.stdout) as { uuids: string[]; items: number }
    const lines = rawLines(`${dir}/exiting.jsonl`)
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.map((r) => r.uuid)).toEqual(expected.uuids)
    for (const record of records.filter((r) => r.type === 'tool_result')) {
      expect((record.items as unknown[]).length).toBe(expected.items)
    }
  })
})
