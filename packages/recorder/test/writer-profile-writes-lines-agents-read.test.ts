import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  activeBranch,
  claudeProjectDir,
  createRecorder,
  fileOwnership,
  InvalidRecordError,
  listSessions,
  readSession,
} from '../src/index.js'
import { withTempDir } from './helpers/records.js'

async function linesOf(file: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(file, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe("writer profiles write lines the agents' own tools read", () => {
  it("profile 'claude-code': every line carries the fields Claude's tools require, after our envelope", async () => {
    await withTempDir(async (dir) => {
      const recorder = createRecorder({
        dir,
        profile: 'claude-code',
        profileFields: { cwd: '/home/dev/app', version: '2.1.3', gitBranch: 'main' },
      })
      recorder.record('user', { message: { role: 'user', content: 'hi' } })
      // The record's own field wins over the profile's.
      recorder.record('assistant', { isSidechain: true, message: { role: 'assistant', content: [] } })
      await recorder.close()
      const text = await readFile(recorder.filePath, 'utf8')
      expect(text.split('\n')[0]).toMatch(
        /^\{"uuid":"[^"]+","parentUuid":null,"sessionId":"[^"]+","timestamp":"[^"]+","type":"user","v":1,"isSidechain":false,"userType":"external","cwd":"\/home\/dev\/app","version":"2\.1\.3","gitBranch":"main","message":/,
      )
      expect((await linesOf(recorder.filePath))[1]).toMatchObject({ isSidechain: true, userType: 'external' })
      // Still our file: resume and repair may write to it.
      expect((await fileOwnership(recorder.filePath)).verdict).toBe('ours')
      const resumed = createRecorder({
        dir,
        sessionId: recorder.sessionId,
        resume: true,
        profile: 'claude-code',
      })
      resumed.record('user', { message: { role: 'user', content: 'again' } })
      await resumed.close()
      expect((await readSession(recorder.filePath)).problems).toEqual([])
    })
  })

  it("profile 'qwen-code' writes Qwen's cwd, version and gitBranch (and no Claude-only field)", async () => {
    await withTempDir(async (dir) => {
      const recorder = createRecorder({ dir, profile: 'qwen-code', profileFields: { version: '0.24.7' } })
      recorder.record('user', { message: { role: 'user', parts: [{ text: 'hi' }] } })
      await recorder.close()
      const [line] = await linesOf(recorder.filePath)
      expect(line).toMatchObject({ cwd: process.cwd(), version: '0.24.7', gitBranch: '' })
      expect(line).not.toHaveProperty('isSidechain')
      expect(line).not.toHaveProperty('userType')
    })
  })

  it('title, recovered and Claude metadata records never become a parent; in agent profiles they are roots', async () => {
    await withTempDir(async (dir) => {
      const recorder = createRecorder({ dir, profile: 'claude-code' })
      const u1 = recorder.record('user', { message: { role: 'user', content: 'a' } })
      const t = recorder.record('title', { title: 'Named' })
      const s = recorder.record('summary', { summary: 'About a', leafUuid: u1 })
      const c = recorder.record('custom-title', { customTitle: 'Renamed' })
      expect(recorder.lastUuid).toBe(u1)
      const a1 = recorder.record('assistant', { message: { role: 'assistant', content: [] } })
      await recorder.close()
      const { records } = await readSession(recorder.filePath)
      const byUuid = new Map(records.map((r) => [r.uuid, r]))
      expect([t, s, c].map((uuid) => byUuid.get(uuid)?.parentUuid)).toEqual([null, null, null])
      expect(byUuid.get(a1)?.parentUuid).toBe(u1)
      expect(activeBranch(records).records.map((r) => r.uuid)).toEqual([u1, a1])
      const [listed] = await listSessions(dir)
      // Our `title` record names the session for our readers; `custom-title` is what Claude Code shows.
      expect(listed?.title).toBe('Named')
    })
    await withTempDir(async (dir) => {
      // Our own profile: a title hangs off the record it names, and the chain goes on past it.
      const recorder = createRecorder({ dir })
      const u1 = recorder.record('user', { text: 'a' })
      const t = recorder.record('title', { title: 'Named' })
      const u2 = recorder.record('user', { text: 'b' })
      await recorder.close()
      const { records } = await readSession(recorder.filePath)
      expect(records.map((r) => [r.uuid, r.parentUuid])).toEqual([
        [u1, null],
        [t, u1],
        [u2, u1],
      ])
    })
  })

  it('a caller-given timestamp dates the record (import of history); anything else is refused at the call', async () => {
    await withTempDir(async (dir) => {
      const recorder = createRecorder({ dir })
      recorder.record('user', { text: 'old' }, { timestamp: '2025-07-01T12:00:00.5+02:00' })
      recorder.record('user', { text: 'older' }, { timestamp: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) })
      for (const bad of [
        '2025-07-01',
        '2025-07-01T10:00:00',
        'yesterday',
        '2025-13-01T00:00:00Z',
        17e11,
        new Date(Number.NaN),
        '+012025-01-01T00:00:00Z',
      ])
        expect(() => recorder.record('user', {}, { timestamp: bad as string })).toThrow(InvalidRecordError)
      await recorder.close()
      const { records } = await readSession(recorder.filePath)
      expect(records.map((r) => r.timestamp)).toEqual([
        '2025-07-01T10:00:00.500Z',
        '2024-01-02T03:04:05.000Z',
      ])
    })
  })

  it('profile options are validated at the boundary', () => {
    const dir = path.join('/nonexistent', 'x')
    expect(() => createRecorder({ dir, profile: 'claude' as never })).toThrow(/`profile`/)
    expect(() => createRecorder({ dir, profileFields: { cwd: '/' } })).toThrow(/`profileFields`/)
    expect(() => createRecorder({ dir, profile: 'claude-code', profileFields: { cwd: 1 as never } })).toThrow(
      /profileFields\.cwd/,
    )
    expect(() =>
      createRecorder({ dir, profile: 'claude-code', profileFields: { branch: 'x' } as never }),
    ).toThrow(/Unknown option `branch`/)
    expect(() => createRecorder({ dir, profile: 'qwen-code', profileFields: { userType: 'x' } })).toThrow(
      /profileFields\.userType/,
    )
  })

  it('claudeProjectDir names the directory Claude Code keeps a project in', () => {
    expect(claudeProjectDir('/h/.claude/projects', '/home/dev/my_app.v2')).toBe(
      '/h/.claude/projects/-home-dev-my-app-v2',
    )
  })
})
