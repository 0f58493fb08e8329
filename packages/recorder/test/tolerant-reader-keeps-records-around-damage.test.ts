import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSession, type ProblemKind } from '../src/index.js'
import { makeRecord, withTempDir } from './helpers/records.js'

const a = makeRecord(0, null)
const b = makeRecord(1, 'u0')
const c = makeRecord(2, 'u1')
const A = JSON.stringify(a)
const B = JSON.stringify(b)
const C = JSON.stringify(c)

interface Case {
  readonly name: string
  /** The middle line(s), between record a (line 1) and record c (last line). */
  readonly middle: string
  readonly kinds: readonly ProblemKind[]
  /** uuids expected in `records`, in order. */
  readonly uuids: readonly string[]
}

const cases: readonly Case[] = [
  { name: 'an unparseable line', middle: 'this is not json', kinds: ['invalid-json'], uuids: ['u0', 'u2'] },
  { name: 'a JSON number', middle: '42', kinds: ['not-an-object'], uuids: ['u0', 'u2'] },
  { name: 'a JSON array', middle: `[${B}]`, kinds: ['not-an-object'], uuids: ['u0', 'u2'] },
  { name: 'JSON null', middle: 'null', kinds: ['not-an-object'], uuids: ['u0', 'u2'] },
  {
    name: 'an object without an envelope',
    middle: '{"text":"hi","type":"user"}',
    kinds: ['missing-envelope'],
    uuids: ['u0', 'u2'],
  },
  {
    name: 'a record with a wrong-typed envelope field',
    middle: JSON.stringify({ ...b, parentUuid: 7 }),
    kinds: ['missing-envelope'],
    uuids: ['u0', 'u2'],
  },
  {
    name: 'two whole records glued by }{',
    middle: `${B}${JSON.stringify(makeRecord(9, 'u1'))}`,
    kinds: ['glued'],
    uuids: ['u0', 'u1', 'u9', 'u2'],
  },
  {
    name: 'a torn fragment with the next record glued on (…"ty{"uuid":…)',
    middle: `{"uuid":"torn","parentUuid":"u0","ty${B}`,
    kinds: ['glued'],
    uuids: ['u0', 'u1', 'u2'],
  },
  {
    name: 'a record followed by a torn fragment on the same line',
    middle: `${B}{"uuid":"x","parentUu`,
    kinds: ['glued'],
    uuids: ['u0', 'u1', 'u2'],
  },
  { name: 'a line of NUL bytes', middle: '\0'.repeat(64), kinds: ['nul-run'], uuids: ['u0', 'u2'] },
  {
    name: 'a NUL run before a record on the same line',
    middle: `${'\0'.repeat(512)}${B}`,
    kinds: ['nul-run'],
    uuids: ['u0', 'u1', 'u2'],
  },
  {
    name: 'a torn fragment, a NUL run, then a record',
    middle: `{"uuid":"t","pa${'\0'.repeat(100)}${B}`,
    kinds: ['nul-run', 'invalid-json'],
    uuids: ['u0', 'u1', 'u2'],
  },
  { name: 'an empty line', middle: '', kinds: [], uuids: ['u0', 'u2'] },
  { name: 'a record on a CRLF line', middle: `${B}\r`, kinds: [], uuids: ['u0', 'u1', 'u2'] },
  {
    name: 'two records glued on a CRLF line',
    middle: `${B}${JSON.stringify(makeRecord(9, 'u1'))}\r`,
    kinds: ['glued'],
    uuids: ['u0', 'u1', 'u9', 'u2'],
  },
  {
    name: 'a record of a type this reader does not know',
    middle: JSON.stringify({ ...b, type: 'from-the-future', v: 99, extra: { x: 1 } }),
    kinds: [],
    uuids: ['u0', 'u1', 'u2'],
  },
]

describe('the tolerant reader keeps every valid record around damage and names the damage', () => {
  it.for(cases)('$name', async ({ middle, kinds, uuids }) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${A}\n${middle}\n${C}\n`)
      const { records, problems } = await readSession(file)
      expect(records.map((r) => r.uuid)).toEqual(uuids)
      const lineProblems = problems.filter((p) => p.kind !== 'orphan')
      expect(lineProblems.map((p) => p.kind)).toEqual(kinds)
      for (const problem of lineProblems) {
        expect(problem.line).toBe(2)
        expect(problem.detail.length).toBeGreaterThan(10)
      }
    })
  })

  it('does not split at a }{ inside a string value, or after escaped quotes', async () => {
    await withTempDir(async (dir) => {
      // A value ending in a backslash: its closing quote follows `\\`, so it is not an escaped quote.
      const tricky = makeRecord(1, 'u0', { text: 'a}{"uuid":"x"}{b \\"}{\\" end', path: 'C:\\dir\\' })
      const file = path.join(dir, 's1.jsonl')
      await writeFile(file, `${A}\n${JSON.stringify(tricky)}${C}\n`)
      const { records, problems } = await readSession(file)
      expect(records).toEqual([a, tricky, c])
      expect(problems.map((p) => p.kind)).toEqual(['glued'])
    })
  })

  it('returns records exactly as written, unknown fields included', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's1.jsonl')
      const rich = makeRecord(1, 'u0', { message: { role: 'user', parts: [{ text: 'ü 😀 \u2028' }] } })
      await writeFile(file, `${A}\n${JSON.stringify(rich)}\n`)
      const result = await readSession(file)
      expect(result).toEqual({
        format: 'sessiontape',
        files: [file],
        metadata: [],
        takenBack: [],
        earlierSession: [],
        records: [a, rich],
        lines: [1, 2],
        problems: [],
        recovered: [],
        lastUuid: 'u1',
      })
    })
  })

  it('rejects only when the file cannot be read at all', async () => {
    await withTempDir(async (dir) => {
      await expect(readSession(path.join(dir, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' })
      await expect(readSession(dir)).rejects.toMatchObject({ code: 'EISDIR' })
    })
  })
})
