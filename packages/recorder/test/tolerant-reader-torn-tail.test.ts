import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectTailSync, readSession } from '../src/index.js'
import { makeChain, makeRecord, toJsonl, withTempDir } from './helpers/records.js'

describe('a last line without a newline is a torn tail, never a record', () => {
  it.for([
    { name: 'half a record', tail: '{"uuid":"3f1c","parentUuid":"u1","type":"assis', nul: false },
    { name: 'a NUL run', tail: '\0'.repeat(4096), nul: true },
    // The writer never ends a write in whitespace, so these bytes are torn too: resume quarantines them.
    { name: 'whitespace only', tail: ' \r', nul: false },
  ])('$name', async ({ tail, nul }) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(2)) + tail)
      const { records, problems, lastUuid } = await readSession(file)
      expect(records.map((r) => r.uuid)).toEqual(['u0', 'u1'])
      expect(lastUuid).toBe('u1')
      expect(problems).toHaveLength(1)
      expect(problems[0]).toMatchObject({ line: 3, kind: 'torn-tail' })
      expect(problems[0]!.detail).toContain(`${Buffer.byteLength(tail)} `)
      expect(problems[0]!.detail.includes('NUL')).toBe(nul)
      // Reader and resume agree on what is torn: resume names exactly these bytes in its `recovered` record.
      expect(inspectTailSync(file).tornBytes).toBe(Buffer.byteLength(tail))
    })
  })

  it('a complete record whose newline never made it is torn to a reader (its writer may still be writing it), and a record to resume', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, toJsonl(makeChain(2)) + JSON.stringify(makeRecord(2, 'u1')))
      const { records, problems } = await readSession(file)
      expect(records.map((r) => r.uuid)).toEqual(['u0', 'u1'])
      expect(problems).toMatchObject([{ line: 3, kind: 'torn-tail' }])
      // Resume keeps it: it ends the line with its newline and chains onto it.
      expect(inspectTailSync(file)).toMatchObject({ tornBytes: 0, lastRecord: { uuid: 'u2' } })
    })
  })

  it('reports nothing for an empty file', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, '')
      expect(await readSession(file)).toEqual({
        format: 'sessiontape',
        files: [file],
        metadata: [],
        takenBack: [],
        earlierSession: [],
        records: [],
        lines: [],
        problems: [],
        recovered: [],
        lastUuid: null,
      })
    })
  })
})
