import { describe, expect, it } from 'vitest'

import { createRecorder, InvalidRecordError, RecorderClosedError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const circular: Record<string, unknown> = { name: 'loop' }
circular.self = circular

const badCalls: Array<[label: string, call: (rec: ReturnType<typeof createRecorder>) => unknown]> = [
  ['circular data', (rec) => rec.record('event', circular)],
  ['a BigInt value', (rec) => rec.record('event', { big: 10n })],
  ['a non-string type', (rec) => rec.record(42 as unknown as string, {})],
  ['an empty type', (rec) => rec.record('', {})],
  ['array data', (rec) => rec.record('event', [1, 2])],
  ['string data', (rec) => rec.record('event', 'text' as unknown as object)],
  ['null data', (rec) => rec.record('event', null as unknown as object)],
  ['a reserved key: uuid', (rec) => rec.record('event', { uuid: 'mine' })],
  ['a reserved key: parentUuid', (rec) => rec.record('event', { parentUuid: null })],
  ['a reserved key: sessionId', (rec) => rec.record('event', { sessionId: 'x' })],
  ['a reserved key: timestamp', (rec) => rec.record('event', { timestamp: 1 })],
  ['a reserved key: type', (rec) => rec.record('event', { type: 'other' })],
  ['a reserved key: v', (rec) => rec.record('event', { v: 2 })],
  ['a bad parentUuid', (rec) => rec.record('event', {}, { parentUuid: 7 as unknown as string })],
  ['an empty parentUuid', (rec) => rec.record('event', {}, { parentUuid: '' })],
  [
    'a throwing getter',
    (rec) =>
      rec.record('event', {
        get text(): string {
          throw new Error('getter')
        },
      }),
  ],
  [
    'a throwing Proxy trap',
    (rec) =>
      rec.record(
        'event',
        new Proxy(
          {},
          {
            ownKeys() {
              throw new Error('trap')
            },
          },
        ),
      ),
  ],
  [
    'a revoked Proxy',
    (rec) => {
      const { proxy, revoke } = Proxy.revocable({ a: 1 }, {})
      revoke()
      return rec.record('event', proxy)
    },
  ],
  [
    'options with a throwing getter',
    (rec) =>
      rec.record(
        'event',
        {},
        {
          get parentUuid(): string {
            throw new Error('getter')
          },
        },
      ),
  ],
  [
    'a throwing toJSON',
    (rec) =>
      rec.record('event', {
        toJSON() {
          throw new Error('nope')
        },
      }),
  ],
]

describe('bad input gets a typed error from record() and changes nothing', () => {
  it.for(badCalls)('%s → InvalidRecordError, chain and counters unchanged', async ([, call]) => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    const before = rec.record('user', { text: 'before' })
    expect(() => call(rec)).toThrow(InvalidRecordError)
    try {
      call(rec)
    } catch (error) {
      expect((error as InvalidRecordError).code).toBe('ERR_INVALID_RECORD')
    }
    expect(rec.lastUuid).toBe(before)
    expect(rec.stats().recorded).toBe(1)
    const after = rec.record('assistant', { text: 'after' })
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => [r.uuid, r.parentUuid])).toEqual([
      [before, null],
      [after, before],
    ])
  })

  it('a data key that is not enumerable, or inherited, is not a collision (JSON.stringify would not write it)', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    const data = Object.create({ uuid: 'inherited' }) as Record<string, unknown>
    Object.defineProperty(data, 'type', { value: 'hidden', enumerable: false })
    data.text = 'ok'
    rec.record('event', data)
    await rec.close()
    expect(readTranscript(rec.filePath)[0]).toMatchObject({ type: 'event', text: 'ok' })
  })

  it('record() after close() throws RecorderClosedError and writes nothing more', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    const only = rec.record('event')
    await rec.close()
    expect(() => rec.record('event')).toThrow(RecorderClosedError)
    try {
      rec.record('late')
    } catch (error) {
      expect((error as RecorderClosedError).code).toBe('ERR_RECORDER_CLOSED')
    }
    expect(rec.lastUuid).toBe(only)
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([only])
  })

  it('record() while close() is in progress throws too', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    rec.record('event')
    const closing = rec.close()
    expect(() => rec.record('event')).toThrow(RecorderClosedError)
    await closing
    expect(readTranscript(rec.filePath)).toHaveLength(1)
  })
})
