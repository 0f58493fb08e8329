import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSession, repairTranscript, streamRecords, type ReadProblem } from '../src/index.js'
import { makeRecord, withTempDir } from './helpers/records.js'

// The real limit is the longest string Node can decode (~512 MiB); the test seam lowers it.
const MAX_LINE_BYTES = 100_000
const A = JSON.stringify(makeRecord(0, null))
const C = JSON.stringify(makeRecord(2, 'u0'))

describe('a line too long to decode is skipped unread and reported; the records around it survive', () => {
  it.for([
    { name: 'inside one read', text: `${A}\n${'x'.repeat(150_000)}\n${C}\n`, kind: 'too-long', line: 2 },
    {
      name: 'across many reads',
      text: `${A}\n${'\0'.repeat(1_000_000)}\n${C}\n`,
      kind: 'too-long',
      line: 2,
    },
    {
      name: 'as the unterminated last line',
      text: `${A}\n${C}\n${'\0'.repeat(1_000_000)}`,
      kind: 'torn-tail',
      line: 3,
    },
  ] as const)('$name', async ({ text, kind, line }) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, text)
      const bytes = line === 2 ? text.split('\n')[1]!.length : text.split('\n')[2]!.length
      const { records, problems } = await readSession(file, { maxLineBytes: MAX_LINE_BYTES })
      expect(records.map((r) => r.uuid)).toEqual(['u0', 'u2'])
      expect(problems).toMatchObject([{ line, kind }])
      expect(problems[0]!.detail).toContain(`${bytes} byte`)

      const streamed: ReadProblem[] = []
      const uuids: string[] = []
      const options = { maxLineBytes: MAX_LINE_BYTES, onProblem: (p: ReadProblem) => streamed.push(p) }
      for await (const record of streamRecords(file, options)) uuids.push(record.uuid)
      expect(uuids).toEqual(['u0', 'u2'])
      expect(streamed).toEqual(problems)
    })
  })

  it('reports it in line order among the other problems', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${A}\nnot json\n${'x'.repeat(150_000)}\n42\n${C}\n`)
      const streamed: ReadProblem[] = []
      const options = { maxLineBytes: MAX_LINE_BYTES, onProblem: (p: ReadProblem) => streamed.push(p) }
      for await (const _record of streamRecords(file, options));
      expect(streamed.map((p) => [p.line, p.kind])).toEqual([
        [2, 'invalid-json'],
        [3, 'too-long'],
        [4, 'not-an-object'],
      ])
    })
  })

  it('makes repair refuse and change nothing, since the line could not be quarantined', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const text = `${A}\n${'x'.repeat(150_000)}\n${C}\n{"torn`
      await writeFile(file, text)
      await expect(repairTranscript(file, { maxLineBytes: MAX_LINE_BYTES })).rejects.toMatchObject({
        code: 'ERR_LINE_TOO_LONG',
      })
      expect(await readFile(file, 'utf8')).toBe(text)
      expect(await readdir(dir)).toEqual(['s1.jsonl'])
    })
  })
})
