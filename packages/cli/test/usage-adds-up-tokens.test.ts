import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliWith, runInProcess } from './helpers/cli.js'
import { writeClaudeProjects } from './helpers/claude-usage-sessions.js'

let tmp: string
let projects: string
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cli-usage-'))
  projects = await writeClaudeProjects(path.join(tmp, 'claude'))
})
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

const DAY_1 = {
  inputTokens: 36019,
  cacheReadInputTokens: 33000,
  cacheCreationInputTokens: 3000,
  outputTokens: 515,
  reasoningOutputTokens: 0,
  totalTokens: 36534,
}
const DAY_2 = {
  inputTokens: 4440,
  cacheReadInputTokens: 500,
  cacheCreationInputTokens: 800,
  outputTokens: 1369,
  reasoningOutputTokens: 0,
  totalTokens: 5809,
}

/** `sessiontape usage … --json`, days in UTC (in this process: the command logic the executable runs). */
async function usageJson(...args: string[]) {
  const result = await runInProcess('usage', ...args, '--timezone', 'UTC', '--json')
  return {
    ...result,
    json: JSON.parse(result.stdout) as Record<string, unknown> & { totals: Record<string, unknown> },
  }
}

describe('sessiontape usage', () => {
  it('walks a directory, counts each Claude request once (content blocks, resumed copies), per day', async () => {
    const { code, stderr, json } = await usageJson(projects, '--by', 'day')
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(json.days).toMatchObject([
      { date: '2026-02-10', ...DAY_1, models: ['claude-sonnet-4-5-20250929'], requests: 3 },
      {
        date: '2026-02-11',
        ...DAY_2,
        models: ['claude-haiku-4-5-20251001', 'claude-opus-4-1-20250805'],
        requests: 3,
      },
    ])
    expect(json.totals).toEqual({
      inputTokens: DAY_1.inputTokens + DAY_2.inputTokens,
      cacheReadInputTokens: 33500,
      cacheCreationInputTokens: 3800,
      outputTokens: 1884,
      reasoningOutputTokens: 0,
      totalTokens: DAY_1.totalTokens + DAY_2.totalTokens,
      models: ['claude-haiku-4-5-20251001', 'claude-opus-4-1-20250805', 'claude-sonnet-4-5-20250929'],
      requests: 6,
      costUSD: expect.any(Number) as number,
      unpricedRequests: 0,
      unpricedModels: [],
    })
    expect(json.filesRead).toBe(3)
    expect(json.unreadable).toEqual([])
  })

  it('lists sessions with file, format, sessionId and models; a subagent file counts in its parent session; a request copied into a resumed file counts in the first', async () => {
    const { json } = await usageJson(projects)
    const sessions = json.sessions as {
      file: string
      format: string
      sessionId: string
      models: string[]
      inputTokens: number
      requests: number
      subagentFiles?: string[]
    }[]
    expect(
      sessions.map((s) => [
        path.relative(projects, s.file),
        s.format,
        s.sessionId,
        s.models,
        s.inputTokens,
        s.requests,
        s.subagentFiles?.map((file) => path.relative(projects, file)),
      ]),
    ).toEqual([
      [
        '-home-dev-app/aaaaaaaa-0000-4000-8000-000000000001.jsonl',
        'claude-code',
        'aaaaaaaa-0000-4000-8000-000000000001',
        ['claude-sonnet-4-5-20250929'],
        DAY_1.inputTokens,
        3,
        undefined,
      ],
      [
        '-home-dev-app/aaaaaaaa-0000-4000-8000-000000000002.jsonl',
        'claude-code',
        'aaaaaaaa-0000-4000-8000-000000000002',
        ['claude-haiku-4-5-20251001', 'claude-opus-4-1-20250805'],
        3540 + 900,
        3,
        ['-home-dev-app/aaaaaaaa-0000-4000-8000-000000000002/subagents/agent-3f2a.jsonl'],
      ],
    ])
    expect(json).not.toHaveProperty('days')
  })

  it('--since and --until keep only the usage of those days; --by model groups by model', async () => {
    const { json } = await usageJson(
      projects,
      '--since',
      '2026-02-11',
      '--until',
      '2026-02-11',
      '--by',
      'model',
    )
    expect(json.totals).toMatchObject({ ...DAY_2, requests: 3 })
    expect(
      (json.models as { model: string; inputTokens: number }[]).map((m) => [m.model, m.inputTokens]),
    ).toEqual([
      ['claude-opus-4-1-20250805', 3540],
      ['claude-haiku-4-5-20251001', 900],
    ])
    const before = await usageJson(projects, '--until', '2026-02-09')
    expect(before.json.sessions).toEqual([])
    expect(before.json.totals).toMatchObject({ inputTokens: 0, requests: 0 })
  })

  it('prints a table with the totals, model names made terminal-safe', async () => {
    const dir = path.join(tmp, 'hostile')
    await mkdir(dir, { recursive: true })
    await writeFile(
      path.join(dir, 'evil.jsonl'),
      `${JSON.stringify({ timestamp: '2026-02-12T10:00:00.000Z', message: { id: 'm', model: 'x\u001b]0;pwned\u0007', usage: { input_tokens: 1, output_tokens: 2 } }, requestId: 'r' })}\n`,
    )
    const { code, stdout } = await runInProcess('usage', projects, dir, '--timezone', 'UTC')
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(
      /^session\s+input\s+cache read\s+cache write\s+output\s+reasoning\s+total\s+cost$/,
    )
    expect(stdout).toContain('x␛]0;pwned␇')
    expect(stdout).not.toContain('\u001b')
    expect(lines.find((l) => l.startsWith('total'))).toMatch(
      // The hostile model has no price: the cost says so instead of counting it as $0.
      /^total\s+40,460\s+33,500\s+3,800\s+1,886\s+0\s+42,346\s+\$\d+\.\d{4} \+ unknown$/,
    )
    expect(stdout).toContain('4 files read, 3 with usage; 7 model requests.')
  })

  it('an unreadable path is reported and exits 2; the rest is still counted', async () => {
    const { code, json } = await usageJson(projects, path.join(tmp, 'missing'))
    expect(code).toBe(2)
    expect(json.unreadable).toEqual([
      expect.objectContaining({ file: path.join(tmp, 'missing'), code: 'ENOENT' }),
    ])
    expect(json.totals).toMatchObject({ requests: 6 })
  })

  it.for([
    [['--by', 'week'], /unknown --by "week"; expected session, day, model or agent/],
    [['--since', '2026-13-01'], /Expected `since` to be a day as YYYY-MM-DD/],
    [['--timezone', 'Mars/Olympus'], /Expected `timeZone` to be an IANA time zone name/],
  ] as const)('a bad command line exits 2: %s', async ([args, message]) => {
    const { code, stderr } = await runInProcess('usage', projects, ...args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('runs as the executable: days in the local time zone (TZ), JSON on stdout', async () => {
    const { code, stdout } = await runCliWith(
      { env: { TZ: 'America/New_York' } },
      'usage',
      projects,
      '--by',
      'day',
      '--json',
    )
    expect(code).toBe(0)
    // 23:59:59 UTC on the 10th is the 10th in New York too; 08:00 UTC on the 11th is 03:00 there.
    expect((JSON.parse(stdout) as { days: { date: string }[] }).days.map((d) => d.date)).toEqual([
      '2026-02-10',
      '2026-02-11',
    ])
  })

  it('without a path and with no agent directory on the machine: says so, exits 2', async () => {
    const home = path.join(tmp, 'empty-home')
    await mkdir(home, { recursive: true })
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', COPILOT_HOME: '' }
    const { code, stderr } = await runCliWith({ env }, 'usage')
    expect(code).toBe(2)
    expect(stderr).toMatch(/no agent session directory found .*give a <file-or-dir>/)
  })
})
