import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, listSessions, type ReadProblem, readSession } from '../src/index.js'
import { geminiJsonlLines } from '../src/read/formats/gemini-lines.js'
import { withTempDir } from './helpers/records.js'

const CHATS = path.join(import.meta.dirname, 'fixtures/formats/gemini-chats')
const JSONL = path.join(CHATS, 'session-2026-05-01T09-00-c4e2a9f1.jsonl')
const DOCUMENT = path.join(CHATS, 'session-2026-04-20T12-00-9a8b7c6d.json')
const SESSION = 'c4e2a9f1-3b7d-4a60-8e15-9d2f6b0c7a48'

async function replay(lines: readonly unknown[], end = '\n'): Promise<string[]> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'session-x.jsonl')
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + end)
    const session = await readSession(file, { format: 'gemini-cli' })
    expect(session.problems).toEqual([])
    return session.records.map((r) => r.uuid)
  })
}

describe('Gemini CLI sessions are replayed as Gemini CLI reads them', () => {
  it('applies upserts, $set, $rewindTo and $patch in order: the messages left, in order, chained', async () => {
    const session = await readSession(JSONL)
    expect(session.format).toBe('gemini-cli')
    expect(session.problems).toEqual([])
    expect(session.records.map((r) => r.uuid)).toEqual(['m1', 'm2', 'm5', 'm6'])
    expect(session.records.map((r) => r.parentUuid)).toEqual([null, 'm1', 'm2', 'm5'])
    expect(session.records.every((r) => r.sessionId === SESSION)).toBe(true)
    // m2 was re-appended with its tokens (upsert), then patched; it keeps its original fields.
    expect(session.records[1]).toMatchObject({
      id: 'm2',
      type: 'gemini',
      content: 'Listing (3 files).',
      tokens: { total: 55 },
      timestamp: '2026-05-01T09:00:03.000Z',
    })
    expect(session.metadata.map((m) => Object.keys(m.value)[0])).toEqual([
      'sessionId',
      '$set',
      '$rewindTo',
      '$patch',
    ])
    expect(activeBranch(session.records).records.map((r) => r.uuid)).toEqual(['m1', 'm2', 'm5', 'm6'])
  })

  it('a header line that carries `"messages": []` (as third-party tools write it) is JSONL, read with every message', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session-2026-05-01T09-00-c4e2a9f1.jsonl')
      const lines = [
        { sessionId: 's', projectHash: 'h', startTime: '2026-05-01T09:00:00.000Z', messages: [] },
        { id: 'a', type: 'user', content: 'hi' },
        { id: 'b', type: 'gemini', content: 'hello' },
      ]
      await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
      const session = await readSession(file)
      expect(session.format).toBe('gemini-cli')
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => r.uuid)).toEqual(['a', 'b'])
    })
  })

  it('a $rewindTo an unknown id clears every message, as Gemini CLI does', async () => {
    const header = { sessionId: 's', projectHash: 'h' }
    const a = { id: 'a', type: 'user', content: 'x' }
    const b = { id: 'b', type: 'gemini', content: 'y' }
    expect(await replay([header, a, b, { $rewindTo: 'nope' }, { id: 'c', type: 'user' }])).toEqual(['c'])
    expect(await replay([header, a, b, { $rewindTo: 'a' }])).toEqual([])
  })

  it('a message a rewind or a checkpoint took out is in takenBack, whole: shown off the branch, its requests counted', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session-x.jsonl')
      const header = { sessionId: 's', projectHash: 'h' }
      const tokens = (total: number) => ({ input: total - 1, output: 1, total })
      const lines = [
        header,
        { id: 'u1', type: 'user', content: 'first' },
        { id: 'g1', type: 'gemini', content: 'one', tokens: tokens(10) },
        { id: 'u2', type: 'user', content: 'second' },
        { id: 'g2', type: 'gemini', content: '' },
        // Tokens come with the message re-appended: its last state before the rewind is what counts.
        { id: 'g2', type: 'gemini', content: 'two', model: 'm', tokens: tokens(20) },
        { $rewindTo: 'u2' },
        { id: 'u3', type: 'user', content: 'again' },
        { id: 'g3', type: 'gemini', content: 'three', tokens: tokens(30) },
        // A checkpoint that lists g1 again (not taken back) and drops g3 (taken back).
        {
          $set: {
            messages: [
              { id: 'u1', type: 'user' },
              { id: 'g1', type: 'gemini', tokens: tokens(10) },
            ],
          },
        },
      ]
      await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
      const session = await readSession(file, { format: 'gemini-cli' })
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => r.uuid)).toEqual(['u1', 'g1'])
      // u2 (a rewound prompt), g2 in its last state (line 6), u3 and g3: each whole, in file order.
      expect(session.takenBack.map(({ line, value }) => ({ line, value }))).toEqual([
        { line: 4, value: { id: 'u2', type: 'user', content: 'second' } },
        { line: 6, value: { id: 'g2', type: 'gemini', content: 'two', model: 'm', tokens: tokens(20) } },
        { line: 8, value: { id: 'u3', type: 'user', content: 'again' } },
        { line: 9, value: { id: 'g3', type: 'gemini', content: 'three', tokens: tokens(30) } },
      ])
      // Not metadata: the lines that are metadata are the file's own.
      expect(session.metadata.map((m) => m.line)).toEqual([1, 7, 10])
    })
  })

  it('a rewind frees what the taken-back messages held when the bound needs it: they shrink to their token counts', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session-x.jsonl')
      const long = 'x'.repeat(5000)
      const lines = [
        { sessionId: 's', projectHash: 'h' },
        { id: 'u1', type: 'user', content: 'q' },
        { id: 'g1', type: 'gemini', content: long, tokens: { input: 1, output: 1, total: 2 } },
        { $rewindTo: 'u1' },
        { id: 'u2', type: 'user', content: 'q again' },
        { id: 'g2', type: 'gemini', content: long, tokens: { input: 1, output: 1, total: 2 } },
      ]
      await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
      const entries: { records: readonly { uuid: string }[]; problems: readonly unknown[] }[] = []
      for await (const batch of geminiJsonlLines(file, { maxReplayChars: 8000 })) entries.push(...batch)
      expect(entries.flatMap((e) => e.problems)).toEqual([])
      expect(entries.flatMap((e) => e.records.map((r) => r.uuid))).toEqual(['u2', 'g2'])
    })
  })

  it('the bound on held messages counts what $patch lines merge in, and holds when a message is put again larger', async () => {
    const long = 'x'.repeat(5000)
    async function replayBounded(lines: readonly unknown[]) {
      return withTempDir(async (dir) => {
        const file = path.join(dir, 'session-x.jsonl')
        await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
        const records: Record<string, unknown>[] = []
        const problems: ReadProblem[] = []
        for await (const batch of geminiJsonlLines(file, { maxReplayChars: 8000 })) {
          for (const entry of batch) {
            records.push(...(entry.records as unknown as Record<string, unknown>[]))
            problems.push(...entry.problems)
          }
        }
        return { records, problems }
      })
    }
    // A short patch to a long message: the merged message still holds the long text, so a second long
    // message does not fit (it did when the patch's line length replaced the message's in the count).
    const patched = await replayBounded([
      { sessionId: 's', projectHash: 'h' },
      { id: 'u1', type: 'user', content: long },
      { $patch: { id: 'u1', status: 'done' } },
      { id: 'u2', type: 'user', content: long },
    ])
    expect(patched.records.map((r) => [r.uuid, r.status])).toEqual([['u1', 'done']])
    expect(patched.problems.map((p) => p.kind)).toEqual(['too-long'])
    expect(patched.problems[0]?.detail).toContain('bound of 8000 characters')
    // Two short messages put again long: the second would pass the bound, so it keeps its earlier state.
    const grown = await replayBounded([
      { sessionId: 's', projectHash: 'h' },
      { id: 'u1', type: 'user', content: 'q1' },
      { id: 'u2', type: 'user', content: 'q2' },
      { id: 'u1', type: 'user', content: long },
      { id: 'u2', type: 'user', content: long },
    ])
    expect(grown.records.map((r) => [r.uuid, (r.content as string).length])).toEqual([
      ['u1', 5000],
      ['u2', 2],
    ])
    expect(grown.problems.map((p) => p.kind)).toEqual(['too-long'])
  })

  it('$set.messages is a checkpoint that replaces the list; a complete last line without a newline counts', async () => {
    const header = { sessionId: 's', projectHash: 'h' }
    const ids = await replay(
      [header, { id: 'a' }, { $set: { messages: [{ id: 'k1' }, { id: 'k2' }] } }, { id: 'z', type: 'user' }],
      '',
    )
    expect(ids).toEqual(['k1', 'k2', 'z'])
  })

  it('a cut-off last line is a torn tail; broken lines are problems and the replay goes on', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session-y.jsonl')
      const text = await readFile(JSONL, 'utf8')
      const lines = text.trimEnd().split('\n')
      lines.splice(2, 0, 'not json at all')
      await writeFile(file, `${lines.join('\n')}\n{"id":"m7","type":"us`)
      const session = await readSession(file)
      expect(session.format).toBe('gemini-cli')
      expect(session.problems.map((p) => [p.kind, p.line])).toEqual([
        ['invalid-json', 3],
        ['torn-tail', 13],
      ])
      expect(session.records.map((r) => r.uuid)).toEqual(['m1', 'm2', 'm5', 'm6'])
    })
  })

  it('reads the older single-document format whole: one record per message, no problem per line', async () => {
    const session = await readSession(DOCUMENT)
    expect(session.format).toBe('gemini-json')
    expect(session.problems).toEqual([])
    expect(session.records.map((r) => [r.uuid, r.parentUuid, r.type])).toEqual([
      ['u1', null, 'user'],
      ['a1', 'u1', 'gemini'],
      ['u2', 'a1', 'user'],
    ])
    expect(session.metadata).toHaveLength(1)
    expect(session.metadata[0]!.value).not.toHaveProperty('messages')
  })

  it('a damaged single document is one invalid-json problem, not one per line', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session-z.json')
      await writeFile(file, (await readFile(DOCUMENT, 'utf8')).slice(0, -40))
      const session = await readSession(file)
      expect(session.format).toBe('gemini-json')
      expect(session.problems.map((p) => p.kind)).toEqual(['invalid-json'])
    })
  })

  it('lists a chats directory: both formats, titles from $set.summary and the document summary', async () => {
    const sessions = await listSessions(CHATS)
    expect(sessions.map((s) => [s.format, s.sessionId, s.recordCount, s.title])).toEqual([
      ['gemini-cli', SESSION, 4, 'Listing files'],
      ['gemini-json', '9a8b7c6d-0000-4000-8000-000000000001', 3, 'Old style session'],
    ])
  })
})
