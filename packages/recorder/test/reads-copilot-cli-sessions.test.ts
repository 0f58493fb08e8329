import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeBranch, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

const SESSION = '5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f'
const EVENTS = path.join(
  import.meta.dirname,
  'fixtures/formats/copilot-session-state',
  SESSION,
  'events.jsonl',
)

describe('GitHub Copilot CLI events.jsonl is read as a session', () => {
  it('every event is a record linked by id/parentId, unknown event types included; fields kept as written', async () => {
    const lines = (await readFile(EVENTS, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>)
    const session = await readSession(EVENTS)
    expect(session.format).toBe('copilot-cli')
    expect(session.problems).toEqual([])
    expect(session.metadata).toEqual([])
    expect(session.records).toEqual(
      lines.map((event) => ({
        ...event,
        uuid: event.id,
        parentUuid: event.parentId,
        sessionId: SESSION,
      })),
    )
    expect(session.records.map((r) => r.type)).toContain('a.type.added.later')
    expect(activeBranch(session.records).records).toHaveLength(lines.length)
  })

  it('before session.start the session is named by its directory; a line without an id is metadata', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'events.jsonl')
      const event = (id: string, parentId: string | null, type: string): string =>
        `${JSON.stringify({ type, data: {}, id, timestamp: '2026-04-02T15:00:00.000Z', parentId })}\n`
      await writeFile(
        file,
        event('e1', null, 'session.resume') +
          '{"type":"note","data":{}}\n' +
          event('e2', 'e1', 'user.message'),
      )
      const session = await readSession(file)
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => [r.uuid, r.parentUuid, r.sessionId])).toEqual([
        ['e1', null, path.basename(dir)],
        ['e2', 'e1', path.basename(dir)],
      ])
      expect(session.metadata.map((m) => m.value.type)).toEqual(['note'])
    })
  })
})
