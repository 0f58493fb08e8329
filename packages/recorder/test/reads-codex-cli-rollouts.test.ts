import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, readSession, streamRecords, type MetadataLine } from '../src/index.js'
import { scanTranscript } from '../src/read/scan-transcript.js'
import { withTempDir } from './helpers/records.js'

const SESSIONS = path.join(import.meta.dirname, 'fixtures/formats/codex-sessions')
const THREAD = '7c1e2f30-5a4b-4d6e-9f10-2b3c4d5e6f70'
const ROLLOUT = path.join(SESSIONS, `2026/05/12/rollout-2026-05-12T10-00-00-${THREAD}.jsonl`)
const FORK = '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
const FORKED = path.join(SESSIONS, `2026/05/13/rollout-2026-05-13T11-00-00-${FORK}.jsonl`)

const line = (value: unknown): string => `${JSON.stringify(value)}\n`

describe('Codex CLI rollouts are read as sessions', () => {
  it('every line is a record or metadata; records keep every field and get a stable uuid, a chain and the thread id', async () => {
    const text = await readFile(ROLLOUT, 'utf8')
    const lines = text.trimEnd().split('\n')
    const session = await readSession(ROLLOUT)
    expect(session.format).toBe('codex-cli')
    expect(session.problems).toEqual([])
    // Line 12 is a type this reader does not know (schema drift): metadata, and the turns around it stay.
    expect(session.metadata.map((m) => [m.line, m.value.type])).toEqual([[12, 'world_state']])
    expect(session.records).toHaveLength(lines.length - 1)
    expect(session.lines).toEqual(lines.map((_, i) => i + 1).filter((n) => n !== 12))
    // uuid = `<rollout id>:<line>`, each record's parent is the record before it, sessionId the thread id.
    expect(session.records.map((r) => r.uuid)).toEqual(session.lines.map((n) => `${THREAD}:${n}`))
    expect(session.records.map((r) => r.parentUuid)).toEqual([
      null,
      ...session.records.slice(0, -1).map((r) => r.uuid),
    ])
    expect(new Set(session.records.map((r) => r.sessionId))).toEqual(new Set([THREAD]))
    // The record is the line as written plus the common view (the new field of line 13 included).
    for (const [i, record] of session.records.entries()) {
      const original = JSON.parse(lines[session.lines[i]! - 1]!) as Record<string, unknown>
      expect(record).toEqual({
        ...original,
        uuid: record.uuid,
        parentUuid: record.parentUuid,
        sessionId: THREAD,
      })
    }
    expect(session.records.map((r) => r.type)).toContain('compacted')
    expect(session.records.at(-1)!.payload).toMatchObject({ type: 'token_count' })
    // The whole session is one branch: no gaps, the compaction crossed.
    const branch = activeBranch(session.records)
    expect(branch.records).toHaveLength(session.records.length)
    expect(branch.gaps).toEqual([])
    // The same uuids on every read.
    expect((await readSession(ROLLOUT)).records.map((r) => r.uuid)).toEqual(
      session.records.map((r) => r.uuid),
    )
  })

  it('streamRecords yields the same records, with the unknown line as metadata', async () => {
    const metadata: MetadataLine[] = []
    const problems: unknown[] = []
    const uuids: string[] = []
    for await (const record of streamRecords(ROLLOUT, {
      onMetadata: (m) => metadata.push(m),
      onProblem: (p) => problems.push(p),
    }))
      uuids.push(record.uuid)
    expect(uuids).toEqual((await readSession(ROLLOUT)).records.map((r) => r.uuid))
    expect(metadata.map((m) => m.value.type)).toEqual(['world_state'])
    expect(problems).toEqual([])
  })

  it('a fork is its own thread: `forked_from_id` is kept, its first record is a root', async () => {
    const session = await readSession(FORKED)
    expect(session.problems).toEqual([])
    expect(session.records[0]).toMatchObject({
      type: 'session_meta',
      parentUuid: null,
      sessionId: FORK,
      payload: { id: FORK, forked_from_id: THREAD },
    })
    expect(session.earlierSession).toEqual([])
  })

  it('0.50-era shapes (`turn.completed` with usage, `token_count` with null info) are records', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'rollout-2025-10-30T10-00-00-3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f.jsonl')
      const at = '2025-10-30T10:00:00.000Z'
      await writeFile(
        file,
        line({ timestamp: at, type: 'session_meta', payload: { id: 'old', cli_version: '0.50.0' } }) +
          line({
            timestamp: at,
            type: 'event_msg',
            payload: { type: 'turn.completed', usage: { input_tokens: 700, output_tokens: 50 } },
          }) +
          line({ timestamp: at, type: 'event_msg', payload: { type: 'token_count', info: null } }),
      )
      const session = await readSession(file)
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => (r.payload as { type?: string }).type)).toEqual([
        undefined,
        'turn.completed',
        'token_count',
      ])
      expect(session.records.map((r) => r.sessionId)).toEqual(['old', 'old', 'old'])
    })
  })

  it('damage is reported on its line and loses nothing around it; a whole last line without a newline is a record', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, `rollout-2026-01-01T00-00-00-${THREAD}.jsonl`)
      const at = '2026-01-01T00:00:00.000Z'
      const meta = line({ timestamp: at, type: 'session_meta', payload: { id: THREAD } })
      const item = (text: string): string =>
        line({ timestamp: at, type: 'response_item', payload: { type: 'message', role: 'user', text } })
      await writeFile(
        file,
        meta + item('a') + '{"timestamp":"x","type":"respo\n' + '[1]\n' + item('b').trimEnd(),
      )
      const session = await readSession(file)
      expect(session.problems.map((p) => [p.line, p.kind])).toEqual([
        [3, 'invalid-json'],
        [4, 'not-an-object'],
      ])
      expect(session.records.map((r) => r.uuid)).toEqual([`${THREAD}:1`, `${THREAD}:2`, `${THREAD}:5`])
      // The record after the damage continues the chain from the last good record.
      expect(session.records[2]!.parentUuid).toBe(`${THREAD}:2`)
      const scan = await scanTranscript(file)
      expect(scan.problems.map((p) => p.kind)).toEqual(['invalid-json', 'not-an-object'])
      // A cut-off last line is a torn tail, never a record.
      await writeFile(file, meta + item('a') + '{"timestamp":"x","ty')
      expect((await readSession(file)).problems.map((p) => p.kind)).toEqual(['torn-tail'])
    })
  })
})
