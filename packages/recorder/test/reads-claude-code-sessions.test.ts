import { copyFile, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, listSessions, readSession, streamRecords } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

const PROJECT = path.join(import.meta.dirname, 'fixtures/formats/claude-project')
const SESSION = '0b7e4a52-9c1d-4f3e-8a6b-2d5c7e9f1a30'
const FILE = path.join(PROJECT, `${SESSION}.jsonl`)
const id = (n: number): string => `11111111-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`

describe('Claude Code sessions are read with Claude Code rules', () => {
  it('reads every line with a uuid as a record, keeps its fields, and metadata lines as metadata', async () => {
    const session = await readSession(FILE)
    const text = await readFile(FILE, 'utf8')
    const withUuid = text.split('\n').filter((line) => /"uuid":/.test(line))
    expect(session.format).toBe('claude-code')
    expect(session.records).toHaveLength(withUuid.length)
    expect(session.problems).toEqual([])
    expect(session.metadata.map((m) => m.value.type)).toEqual([
      'summary',
      'file-history-snapshot',
      'queue-operation',
      'custom-title',
      'ai-title',
    ])
    // Original fields kept as written; no format version is made up for another tool's records.
    expect(session.records[1]).toMatchObject({
      uuid: id(2),
      parentUuid: id(1),
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/app',
      requestId: 'req_01',
      message: { usage: { input_tokens: 120, output_tokens: 30 } },
    })
    expect(session.records[1]).not.toHaveProperty('v')
  })

  it('reads a complete last line without a newline as a record, not a torn tail', async () => {
    const text = await readFile(FILE, 'utf8')
    expect(text.endsWith('\n')).toBe(false)
    const session = await readSession(FILE)
    expect(session.lastUuid).toBe(id(10))
    expect(session.problems.filter((p) => p.kind === 'torn-tail')).toEqual([])
  })

  it('still reports a cut-off last line as a torn tail', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'cut.jsonl')
      const text = await readFile(FILE, 'utf8')
      await writeFile(file, text.slice(0, -20))
      const session = await readSession(file)
      expect(session.problems.map((p) => p.kind)).toEqual(['torn-tail'])
      expect(session.lastUuid).toBe('22222222-0000-4000-8000-000000000002')
    })
  })

  it('reports the parent in an earlier session file as such, not as an orphan', async () => {
    const session = await readSession(FILE)
    expect(session.problems.map((p) => p.kind)).not.toContain('orphan')
    expect(session.earlierSession).toEqual([
      expect.objectContaining({ uuid: id(1), parentUuid: 'c0ffee00-0000-4000-8000-00000000aaaa', line: 3 }),
    ])
  })

  it('an orphan past the first link is still damage', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'orphan.jsonl')
      const lines = (await readFile(FILE, 'utf8')).split('\n')
      lines[6] = lines[6]!.replace(`"parentUuid":"${id(3)}"`, '"parentUuid":"gone"')
      await writeFile(file, lines.join('\n'))
      const session = await readSession(file)
      expect(session.problems).toEqual([expect.objectContaining({ kind: 'orphan', line: 7 })])
      expect(session.earlierSession).toHaveLength(1)
    })
  })

  it('the active branch ends at the last non-sidechain record, crosses the compaction, and skips the rewound turn', async () => {
    const session = await readSession(FILE)
    const branch = activeBranch(session.records)
    expect(branch.leafUuid).toBe(id(10))
    expect(branch.records.map((r) => r.uuid)).toEqual([1, 2, 5, 6, 7, 8, 9, 10].map(id))
    // The compact_boundary is left as written: its link is followed through logicalParentUuid.
    expect(branch.records[4]).toMatchObject({ subtype: 'compact_boundary', parentUuid: null })
    expect(branch.gaps).toEqual([expect.objectContaining({ kind: 'missing-parent', childUuid: id(1) })])
  })

  it('streamRecords hands metadata to onMetadata, never to onProblem', async () => {
    const problems: unknown[] = []
    const metadata: string[] = []
    let format: string | undefined
    let count = 0
    for await (const _ of streamRecords(FILE, {
      onProblem: (p) => problems.push(p),
      onMetadata: (m) => metadata.push(String(m.value.type)),
      onFormat: (f) => (format = f),
    }))
      count++
    expect({ count, problems, format }).toEqual({ count: 12, problems: [], format: 'claude-code' })
    expect(metadata).toHaveLength(5)
  })

  it('lists the project directory with titles, counts and subagent files, writing nothing', async () => {
    await withTempDir(async (dir) => {
      await copyFile(FILE, path.join(dir, `${SESSION}.jsonl`))
      const [session] = await listSessions(dir, { writeRebuiltMeta: true })
      expect(session).toMatchObject({
        sessionId: SESSION,
        format: 'claude-code',
        recordCount: 12,
        title: 'Fix the flaky tests',
        createdAt: '2026-03-02T10:00:00.000Z',
        updatedAt: '2026-03-02T10:31:30.000Z',
        lastUuid: id(10),
      })
      expect(session).not.toHaveProperty('note')
      const { readdir } = await import('node:fs/promises')
      expect(await readdir(dir)).toEqual([`${SESSION}.jsonl`])
    })
    const [withSubagents] = await listSessions(PROJECT)
    expect(withSubagents?.subagents).toEqual([path.join(PROJECT, SESSION, 'subagents', 'agent-a1.jsonl')])
  })

  it('a subagent file is read as Claude Code and carries its parent session id', async () => {
    const file = path.join(PROJECT, SESSION, 'subagents', 'agent-a1.jsonl')
    const session = await readSession(file)
    expect(session).toMatchObject({ format: 'claude-code', problems: [], earlierSession: [] })
    expect(session.records.map((r) => [r.sessionId, r.isSidechain])).toEqual([
      [SESSION, true],
      [SESSION, true],
    ])
    // Only sidechain records: the branch still has a leaf.
    expect(activeBranch(session.records).records).toHaveLength(2)
  })
})
