import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, listSessions, readSession } from '../src/index.js'

const CHATS = path.join(import.meta.dirname, 'fixtures/formats/qwen-chats')
const SESSION = '7d3f9a10-5b2c-4e81-9f0a-6c4d2e8b1a57'
const FILE = path.join(CHATS, `${SESSION}.jsonl`)

describe('Qwen Code sessions are read with Qwen Code rules', () => {
  it('reads every record (no `v`), its parts, usage and system payloads kept as written', async () => {
    const session = await readSession(FILE)
    expect(session.format).toBe('qwen-code')
    expect(session.problems).toEqual([])
    expect(session.records).toHaveLength(9)
    expect(session.records[1]).toMatchObject({
      type: 'assistant',
      usageMetadata: { totalTokenCount: 120 },
      message: { role: 'model' },
    })
    expect(session.records[3]).toMatchObject({ type: 'system', subtype: 'custom_title' })
  })

  it('the active branch follows the rewind: the rewound answer is off the branch', async () => {
    const { records } = await readSession(FILE)
    expect(activeBranch(records).records.map((r) => r.uuid)).toEqual([
      'q-1',
      'q-2',
      'q-3',
      'q-6',
      'q-7',
      'q-8',
      'q-9',
    ])
  })

  it("lists the session with its title: a manual custom_title beats Qwen's automatic one", async () => {
    const [session] = await listSessions(CHATS)
    expect(session).toMatchObject({
      sessionId: SESSION,
      format: 'qwen-code',
      recordCount: 9,
      title: 'Unit test run',
      updatedAt: '2026-04-01T08:01:10.000Z',
    })
  })
})
