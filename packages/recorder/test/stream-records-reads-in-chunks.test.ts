import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSession, streamRecords, type ReadProblem, type SessionRecord } from '../src/index.js'
import { makeRecord, toJsonl, withTempDir } from './helpers/records.js'

async function collect(file: string, problems: ReadProblem[] = []): Promise<SessionRecord[]> {
  const records: SessionRecord[] = []
  for await (const record of streamRecords(file, { onProblem: (p) => problems.push(p) })) records.push(record)
  return records
}

describe('streamRecords yields the same records as readSession, chunk by chunk', () => {
  it('handles lines and multi-byte characters that straddle read chunks', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      // ~3.5 MB over several 1 MiB reads: a 2.5 MB record, multi-byte text, many small records.
      const records = [
        makeRecord(0, null, { text: '€😀'.repeat(100_000) }),
        makeRecord(1, 'u0', { blob: 'x'.repeat(2_500_000) }),
        ...Array.from({ length: 3000 }, (_, i) =>
          makeRecord(i + 2, `u${i + 1}`, { text: `é${'y'.repeat(i % 300)}` }),
        ),
      ]
      await writeFile(file, toJsonl(records) + 'not json\n{"torn')
      const problems: ReadProblem[] = []
      const streamed = await collect(file, problems)
      expect(streamed).toEqual(records)
      expect(problems.map((p) => [p.kind, p.line])).toEqual([
        ['invalid-json', 3003],
        ['torn-tail', 3004],
      ])
      expect((await readSession(file)).records).toEqual(streamed)
    })
  })

  it('closes the file when the consumer stops early', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(Array.from({ length: 10 }, (_, i) => makeRecord(i, null))))
      const iterator = streamRecords(file)
      for await (const record of iterator) if (record.uuid === 'u2') break
      // A finished generator has run its finally block (the file handle is closed).
      expect(await iterator.next()).toEqual({ done: true, value: undefined })
    })
  })

  it('stops with the abort reason when aborted', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl([makeRecord(0, null)]))
      const controller = new AbortController()
      controller.abort(new Error('stop'))
      await expect(collect2(streamRecords(file, { signal: controller.signal }))).rejects.toThrow('stop')
    })
  })

  it('throws a TypeError at the call for a non-function onProblem', () => {
    expect(() => streamRecords('x', { onProblem: 5 as never })).toThrow(
      'Expected `onProblem` to be a function, got `5` (number)',
    )
  })

  it('rejects a signal that is not an AbortSignal: at the call for streamRecords, as a rejection for readSession', async () => {
    const message = 'Expected `signal` to be an AbortSignal, got `soon` (string)'
    expect(() => streamRecords('x', { signal: 'soon' as never })).toThrow(message)
    await expect(readSession('x', { signal: 'soon' as never })).rejects.toThrow(message)
  })
})

async function collect2(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = []
  for await (const item of iterable) out.push(item)
  return out
}
