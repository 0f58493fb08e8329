import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'

const FIXTURES = path.join(import.meta.dirname, '../../recorder/test/fixtures/formats')
const CODEX = path.join(FIXTURES, 'codex-sessions')
const THREAD = '4b5c6d7e-8f90-4a1b-9c2d-3e4f5a6b7c8d'
const SEGMENT = path.join(CODEX, `2026/05/15/rollout-2026-05-15T08-00-00-${THREAD}_seg-0002.jsonl`)
const COMPRESSED = path.join(CODEX, `2026/05/14/rollout-2026-05-14T08-00-00-${THREAD}.jsonl.zst`)
const COPILOT = path.join(FIXTURES, 'copilot-session-state/5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f/events.jsonl')

describe('the CLI reads Codex CLI, Copilot CLI and Cursor CLI sessions', () => {
  it('verify exits 0 on intact files, list shows each Codex thread once, tail refuses a compressed rollout', async () => {
    const verified = await runCli('verify', SEGMENT)
    expect(verified.code).toBe(0)
    expect(verified.stdout).toContain('codex-cli')
    expect(verified.stdout).toContain('6 record(s), no problems')
    expect((await runCli('verify', COMPRESSED)).code).toBe(0)
    expect((await runCli('verify', COPILOT)).code).toBe(0)

    const listed = await runCli('list', '--json', CODEX)
    expect(listed.code).toBe(0)
    const sessions = JSON.parse(listed.stdout) as { sessionId: string; recordCount: number }[]
    expect(sessions.filter((s) => s.sessionId === THREAD)).toEqual([
      expect.objectContaining({ recordCount: 6, format: 'codex-cli' }),
    ])
    expect(sessions).toHaveLength(4)

    const tailed = await runCli('tail', COMPRESSED)
    expect(tailed.code).toBe(2)
    expect(tailed.stderr).toContain('use: sessiontape show')
  }, 120_000)
})
