import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, listSessions, readSession, streamRecords } from '../src/index.js'
import { scanTranscript } from '../src/read/scan-transcript.js'

const SESSIONS = path.join(import.meta.dirname, 'fixtures/formats/codex-sessions')
const THREAD = '4b5c6d7e-8f90-4a1b-9c2d-3e4f5a6b7c8d'
// The thread's first rollout (closed, so compressed) and a later segment that continues it.
const FIRST = path.join(SESSIONS, `2026/05/14/rollout-2026-05-14T08-00-00-${THREAD}.jsonl.zst`)
const SEGMENT = path.join(SESSIONS, `2026/05/15/rollout-2026-05-15T08-00-00-${THREAD}_seg-0002.jsonl`)

describe('the segments of one Codex thread are read as one session, in order', () => {
  it('reading the newest segment reads the thread from its first file: one chain, one thread id', async () => {
    const session = await readSession(SEGMENT)
    expect(session.format).toBe('codex-cli')
    expect(session.problems).toEqual([])
    expect(session.records.map((r) => r.uuid)).toEqual([
      `${THREAD}:1`,
      `${THREAD}:2`,
      `${THREAD}:3`,
      `${THREAD}_seg-0002:1`,
      `${THREAD}_seg-0002:2`,
      `${THREAD}_seg-0002:3`,
    ])
    // Line numbers are those of each record's own file; `ordinal` is kept as written.
    expect(session.lines).toEqual([1, 2, 3, 1, 2, 3])
    expect(session.records.map((r) => r.ordinal)).toEqual([0, 1, 2, 3, 4, 5])
    expect(session.records[3]!.parentUuid).toBe(`${THREAD}:3`)
    expect(new Set(session.records.map((r) => r.sessionId))).toEqual(new Set([THREAD]))
    expect(activeBranch(session.records).records).toHaveLength(6)
    const streamed: string[] = []
    for await (const record of streamRecords(SEGMENT)) streamed.push(record.uuid)
    expect(streamed).toEqual(session.records.map((r) => r.uuid))
    expect((await scanTranscript(SEGMENT)).problems).toEqual([])
  })

  it('reading the first file reads only it', async () => {
    const session = await readSession(FIRST)
    expect(session.records.map((r) => r.uuid)).toEqual([`${THREAD}:1`, `${THREAD}:2`, `${THREAD}:3`])
  })

  it('listing ~/.codex/sessions walks YYYY/MM/DD and lists each thread once, its segments grouped', async () => {
    const sessions = await listSessions(SESSIONS)
    expect(sessions.map((s) => s.sessionId).sort()).toEqual(
      [
        THREAD,
        '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
        '7c1e2f30-5a4b-4d6e-9f10-2b3c4d5e6f70',
        '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4',
      ].sort(),
    )
    const thread = sessions.find((s) => s.sessionId === THREAD)!
    expect(thread).toMatchObject({
      filePath: SEGMENT,
      format: 'codex-cli',
      recordCount: 6,
      segments: [FIRST, SEGMENT],
      createdAt: '2026-05-14T06:00:00.000Z',
      updatedAt: '2026-05-15T06:00:05.000Z',
    })
    expect(sessions.every((s) => s.note === undefined)).toBe(true)
  })
})
