import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { readSession } from '../src/index.js'
import { makeRecord, toJsonl, withTempDir } from './helpers/records.js'
import { LONG_WORK_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: LONG_WORK_TEST_TIMEOUT_MS, hookTimeout: LONG_WORK_TEST_TIMEOUT_MS })

async function read(records: unknown[]) {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 's1.jsonl')
    await writeFile(file, toJsonl(records))
    return readSession(file)
  })
}

describe('links that the whole file reveals as broken are reported, and the records kept', () => {
  it('reports an orphan: a parent that was never written', async () => {
    const { records, problems } = await read([
      makeRecord(0, null),
      makeRecord(1, 'never-written'),
      makeRecord(2, 'u1'),
    ])
    expect(records).toHaveLength(3)
    expect(problems).toEqual([
      { line: 2, kind: 'orphan', detail: 'parent "never-written" of record "u1" is not in the file' },
    ])
  })

  it('reports a reused uuid at the later line and keeps both records', async () => {
    const { records, problems } = await read([makeRecord(0, null), makeRecord(1, 'u0'), makeRecord(1, 'u0')])
    expect(records).toHaveLength(3)
    expect(problems).toMatchObject([{ line: 3, kind: 'duplicate-uuid' }])
    expect(problems[0]!.detail).toContain('line 2')
  })

  it('reports a parent cycle once, at its first line', async () => {
    const { records, problems } = await read([
      makeRecord(0, null),
      makeRecord(1, 'u3'),
      makeRecord(2, 'u1'),
      makeRecord(3, 'u2'),
      makeRecord(4, 'u3'),
    ])
    expect(records).toHaveLength(5)
    expect(problems).toMatchObject([{ line: 2, kind: 'cycle' }])
    expect(problems[0]!.detail).toContain('"u1" → "u3" → "u2" → "u1"')
  })

  it('reports a loop through 150,000 records (more than a spread call can take) with a short detail', async () => {
    // The root's parent was overwritten with the leaf's uuid: every record is on one long loop.
    const count = 150_000
    const records = Array.from({ length: count }, (_, i) => makeRecord(i, `u${(i + count - 1) % count}`))
    const { records: kept, problems } = await read(records)
    expect(kept).toHaveLength(count)
    expect(problems.map((p) => [p.line, p.kind])).toEqual([[1, 'cycle']])
    expect(problems[0]!.detail).toContain(`these ${count} record(s)`)
    expect(problems[0]!.detail.length).toBeLessThan(400)
  })

  it('reports a record that is its own parent as a cycle', async () => {
    const { problems } = await read([makeRecord(0, 'u0')])
    expect(problems.map((p) => p.kind)).toEqual(['cycle'])
  })

  it('reports nothing for branches that share a parent (a fork is not damage)', async () => {
    const { problems } = await read([
      makeRecord(0, null),
      makeRecord(1, 'u0'),
      makeRecord(2, 'u0'),
      makeRecord(3, null),
    ])
    expect(problems).toEqual([])
  })
})
