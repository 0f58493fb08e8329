import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageDir, runCliWith } from './helpers/cli.js'

const FIXTURES = path.resolve(packageDir, '../sessions/test/fixtures/usage')

describe('`usage --by agent` without a path reads every agent home on the machine in one command', () => {
  it("finds each agent's sessions through its own variable (or ~), one row per agent, the rows adding up to the total", async () => {
    const env = {
      // ~/.qwen/projects is under HOME; the others under the agents' own variables.
      HOME: path.join(FIXTURES, 'qwen'),
      CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'claude'),
      CODEX_HOME: path.join(FIXTURES, 'codex'),
      COPILOT_HOME: path.join(FIXTURES, 'copilot'),
      TZ: 'UTC',
    }
    const result = await runCliWith({ env }, 'usage', '--by', 'agent', '--json')
    expect(result.code, result.stderr).toBe(0)
    const json = JSON.parse(result.stdout) as {
      agents: {
        agent: string
        sessions: number
        requests: number
        totalTokens: number
        outputTokens: number
      }[]
      totals: { totalTokens: number; requests: number }
    }
    expect(json.agents.map((a) => [a.agent, a.sessions, a.requests, a.outputTokens])).toEqual([
      ['claude-code', 5, 10, 9 + 11 + 575 + 1300 + 112 + 2000],
      ['codex-cli', 2, 5, 450 + 900],
      ['qwen-code', 1, 3, 90 + 40 + 25],
      ['copilot-cli', 1, 3, 150],
    ])
    expect(json.agents.reduce((sum, a) => sum + a.totalTokens, 0)).toBe(json.totals.totalTokens)
    expect(json.agents.reduce((sum, a) => sum + a.requests, 0)).toBe(json.totals.requests)

    const table = await runCliWith({ env }, 'usage', '--by', 'agent')
    expect(table.stdout).toMatch(
      /^agent\s+input\s+cache read\s+cache write\s+output\s+reasoning\s+total\s+cost$/m,
    )
    expect(table.stdout).toMatch(/^claude-code \(5 sessions\)\s/m)
    expect(table.stdout).toMatch(/^copilot-cli \(1 session\)\s/m)
  })
})
