import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSession, streamRecords, type ReadProblem, type RecoveredTornLine } from '../src/index.js'
import { withTempDir } from './helpers/records.js'
import { TranscriptBuilder, line } from './helpers/recovered-fixtures.js'

const PARTIAL = '{"uuid":"torn","parentUuid":"u1","sessionId":"s1","timest'

async function readBoth(file: string) {
  const session = await readSession(file)
  const streamed: { problems: ReadProblem[]; recovered: RecoveredTornLine[]; uuids: string[] } = {
    problems: [],
    recovered: [],
    uuids: [],
  }
  for await (const record of streamRecords(file, {
    onProblem: (p) => streamed.problems.push(p),
    onRecovered: (r) => streamed.recovered.push(r),
  })) {
    streamed.uuids.push(record.uuid)
  }
  // The streaming reader and the whole-file reader agree on every line-level fact.
  expect(streamed.uuids).toEqual(session.records.map((r) => r.uuid))
  expect(streamed.recovered).toEqual(session.recovered)
  return session
}

describe('torn lines named by a later `recovered` record are reported as recovered, not damage', () => {
  it('one torn partial line, then the recovered record', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const b = new TranscriptBuilder().add(line('u0', null)).add(line('u1', 'u0'))
      const tornAt = b.offset
      b.crash(PARTIAL, 'r1', 'u1').add(line('u2', 'r1'))
      await writeFile(file, b.text)
      const { records, problems, recovered } = await readBoth(file)
      expect(records.map((r) => r.uuid)).toEqual(['u0', 'u1', 'r1', 'u2'])
      expect(problems).toEqual([])
      expect(recovered).toMatchObject([
        { line: 3, offset: tornAt, length: PARTIAL.length, kinds: ['invalid-json'], recoveredBy: 'r1' },
      ])
    })
  })

  it('a NUL run and a partial line, on one line or on two', async () => {
    for (const torn of [`${'\0'.repeat(40)}${PARTIAL}`, `${'\0'.repeat(40)}\n${PARTIAL}`]) {
      await withTempDir(async (dir) => {
        const file = path.join(dir, 's1.jsonl')
        const b = new TranscriptBuilder().add(line('u0', null)).add(line('u1', 'u0'))
        b.crash(torn, 'r1', 'u1').add(line('u2', 'r1'))
        await writeFile(file, b.text)
        const { records, problems, recovered } = await readBoth(file)
        expect(records.map((r) => r.uuid)).toEqual(['u0', 'u1', 'r1', 'u2'])
        expect(problems).toEqual([])
        expect(recovered.map((r) => r.kinds)).toEqual(
          torn.includes('\n') ? [['nul-run'], ['invalid-json']] : [['nul-run', 'invalid-json']],
        )
      })
    }
  })

  it('two crashes in a row: each recovered record names its own torn bytes', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const b = new TranscriptBuilder().add(line('u0', null))
      b.crash(PARTIAL, 'r1', 'u0').crash('{"uuid":"x","pare', 'r2', 'r1').add(line('u1', 'r2'))
      await writeFile(file, b.text)
      const { records, problems, recovered } = await readBoth(file)
      expect(records.map((r) => r.uuid)).toEqual(['u0', 'r1', 'r2', 'u1'])
      expect(problems).toEqual([])
      expect(recovered.map((r) => [r.line, r.recoveredBy])).toEqual([
        [2, 'r1'],
        [4, 'r2'],
      ])
    })
  })

  it('a second crash while the first recovered record was being written: one range holds both', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const b = new TranscriptBuilder().add(line('u0', null))
      b.crash(`${PARTIAL}\n{"uuid":"r0","parentUuid":"u0","sessionId":"s1","ty`, 'r1', 'u0')
      await writeFile(file, b.text)
      const { problems, recovered } = await readBoth(file)
      expect(problems).toEqual([])
      expect(recovered.map((r) => r.line)).toEqual([2, 3])
    })
  })

  it('a torn line that no recovered record names is still damage', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${line('u0', null)}${PARTIAL}\n${line('u1', 'u0')}`)
      const { problems, recovered } = await readBoth(file)
      expect(recovered).toEqual([])
      expect(problems).toMatchObject([{ line: 2, kind: 'invalid-json' }])
    })
  })

  it('a recovered record naming a range that does not match leaves the damage as damage', async () => {
    const skews = [
      { offset: 1, length: -1 }, // starts after the last record's line ends
      { offset: 0, length: -5 }, // ends before the torn bytes do
      { offset: -1, length: 1 }, // starts inside the last record
      { offset: 0, length: 10 }, // reaches past the recovered record's own start
    ]
    for (const skew of skews) {
      await withTempDir(async (dir) => {
        const file = path.join(dir, 's1.jsonl')
        const b = new TranscriptBuilder().add(line('u0', null)).crash(PARTIAL, 'r1', 'u0', skew)
        await writeFile(file, b.text)
        const { records, problems, recovered } = await readBoth(file)
        expect(records.map((r) => r.uuid)).toEqual(['u0', 'r1'])
        expect(recovered).toEqual([])
        expect(problems).toMatchObject([{ line: 2, kind: 'invalid-json' }])
      })
    }
  })

  it('reads the older recovered shape (quarantinePath, validLength, …) as a plain record', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const old = line('r1', 'u0', {
        type: 'recovered',
        reason: 'torn-tail',
        tornBytes: 12,
        validLength: 100,
        quarantinePath: '/tmp/x.torn-1',
        quarantinedBytes: 12,
      })
      await writeFile(file, `${line('u0', null)}${old}`)
      const { records, problems, recovered } = await readBoth(file)
      expect(records.map((r) => [r.uuid, r.type])).toEqual([
        ['u0', 'message'],
        ['r1', 'recovered'],
      ])
      expect(problems).toEqual([])
      expect(recovered).toEqual([])
    })
  })
})
