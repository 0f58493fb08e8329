import { cp, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { listSessions, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

const SESSION = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e'
const DIR = path.join(import.meta.dirname, 'fixtures/formats/cursor-transcripts', SESSION)
const FILE = path.join(DIR, `${SESSION}.jsonl`)

describe('Cursor CLI (cursor-agent) transcripts are read as sessions', () => {
  it('each {role, message} line is a record with a synthesized `<file>:<line>` uuid, chained; other lines are metadata', async () => {
    const lines = (await readFile(FILE, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>)
    const session = await readSession(FILE)
    expect(session.format).toBe('cursor-cli')
    expect(session.problems).toEqual([])
    expect(session.records).toEqual(
      lines.slice(0, 4).map((line, i) => ({
        ...line,
        uuid: `${SESSION}:${i + 1}`,
        parentUuid: i === 0 ? null : `${SESSION}:${i}`,
        sessionId: SESSION,
        timestamp: '',
        type: line.role,
      })),
    )
    expect(session.metadata.map((m) => [m.line, m.value])).toEqual([
      [5, { type: 'turn_ended', status: 'success' }],
    ])
  })

  it('listing ~/.cursor/projects finds each project’s agent-transcripts, sub-agents with their session', async () => {
    await withTempDir(async (home) => {
      const projects = path.join(home, '.cursor', 'projects')
      const at = path.join(projects, 'home-dev-app', 'agent-transcripts', SESSION)
      await cp(DIR, at, { recursive: true })
      const sessions = await listSessions(projects)
      expect(sessions).toEqual([
        expect.objectContaining({
          sessionId: SESSION,
          format: 'cursor-cli',
          recordCount: 4,
          filePath: path.join(at, `${SESSION}.jsonl`),
          subagents: [path.join(at, 'subagents', 'e9f8a7b6-c5d4-4e3f-a2b1-c0d9e8f7a6b5.jsonl')],
        }),
      ])
    })
  })

  it('a sub-agent transcript reads on its own, named by its file', async () => {
    const child = 'e9f8a7b6-c5d4-4e3f-a2b1-c0d9e8f7a6b5'
    const session = await readSession(path.join(DIR, 'subagents', `${child}.jsonl`))
    expect(session.problems).toEqual([])
    expect(session.records.map((r) => [r.uuid, r.type, r.sessionId])).toEqual([
      [`${child}:1`, 'user', child],
      [`${child}:2`, 'assistant', child],
    ])
  })
})
