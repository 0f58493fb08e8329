import { describe, expect, it } from 'vitest'

import { createRecorder, FORMAT_VERSION } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
// RFC 9562 version 4: the version nibble is 4, the variant's two high bits are 10.
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('record() returns the uuid synchronously and bookkeeps the chain synchronously', () => {
  it('returns a uuid at once and moves lastUuid inside the call', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir })
    expect(rec.lastUuid).toBeNull()
    const first = rec.record('user', { text: 'hi' })
    expect(first).toMatch(UUID)
    expect(rec.lastUuid).toBe(first)
    const second = rec.record('assistant', { text: 'hello' })
    expect(rec.lastUuid).toBe(second)
    expect(second).not.toBe(first)
  })

  it('each uuid is a random version-4 uuid, none repeated over many draws of random bytes', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    // 1,000 records: random bytes are drawn for 128 uuids at a time, so this crosses several draws.
    const uuids = Array.from({ length: 1000 }, (_, i) => rec.record('event', { i }))
    await rec.close()
    for (const uuid of uuids) expect(uuid).toMatch(UUID_V4)
    expect(new Set(uuids).size).toBe(uuids.length)
    // Every one of the 122 random bits is 1 in some uuid and 0 in another (a counter or a constant fails).
    const bits = (uuid: string) => BigInt(`0x${uuid.replaceAll('-', '')}`)
    const fixed = (0xf000n << 64n) | (0xc000n << 48n)
    let seenOne = 0n
    let seenZero = 0n
    for (const uuid of uuids) {
      seenOne |= bits(uuid)
      seenZero |= ~bits(uuid) & ((1n << 128n) - 1n)
    }
    expect((seenOne & seenZero) | fixed).toBe((1n << 128n) - 1n)
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual(uuids)
  })

  it('writes the envelope first, in order, then the data, one object per line', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'envelope-1' })
    const uuid = rec.record('tool_result', { tool: 'grep', hits: [1, 2], nested: { ok: true } })
    await rec.close()
    const [record] = readTranscript(rec.filePath)
    expect(Object.keys(record!)).toEqual([
      'uuid',
      'parentUuid',
      'sessionId',
      'timestamp',
      'type',
      'v',
      'tool',
      'hits',
      'nested',
    ])
    expect(record).toMatchObject({
      uuid,
      parentUuid: null,
      sessionId: 'envelope-1',
      type: 'tool_result',
      v: FORMAT_VERSION,
      tool: 'grep',
      hits: [1, 2],
      nested: { ok: true },
    })
    expect(new Date(record!.timestamp as string).toISOString()).toBe(record!.timestamp)
  })

  it('order on disk is the order of record() calls, each parented on the one before', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    const uuids: string[] = []
    for (let i = 0; i < 500; i++) {
      uuids.push(rec.record('event', { i }))
      // Interleave ticks so records land in several writes.
      if (i % 97 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual(uuids)
    expect(records.map((r) => r.parentUuid)).toEqual([null, ...uuids.slice(0, -1)])
    expect(records.map((r) => r.i)).toEqual(uuids.map((_, i) => i))
  })

  it('takes an explicit parent (a branch) or null (a new root), and continues from the new record', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    const a = rec.record('user', { text: 'a' })
    const b = rec.record('assistant', { text: 'b' })
    const branch = rec.record('user', { text: 'edited a' }, { parentUuid: a })
    expect(rec.lastUuid).toBe(branch)
    const afterBranch = rec.record('assistant', { text: 'c' })
    const root = rec.record('system', { text: 'compacted' }, { parentUuid: null })
    await rec.close()
    const parents: Record<string, unknown> = Object.fromEntries(
      readTranscript(rec.filePath).map((r) => [r.uuid as string, r.parentUuid]),
    )
    expect(parents).toEqual({ [a]: null, [b]: a, [branch]: a, [afterBranch]: branch, [root]: null })
  })

  it('a record without data has just the envelope', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    rec.record('ping')
    await rec.close()
    expect(Object.keys(readTranscript(rec.filePath)[0]!)).toEqual([
      'uuid',
      'parentUuid',
      'sessionId',
      'timestamp',
      'type',
      'v',
    ])
  })
})
