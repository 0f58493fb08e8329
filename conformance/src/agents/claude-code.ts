import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { scenariosOf, type AgentSpec, type Cumulative } from './agent.js'

/** Claude Code: Anthropic Messages; sessions in ~/.claude/projects/<cwd-slug>/<session>.jsonl (+ subagents/). */

const TOOLS = ['--allowedTools', 'Bash(ls:*)', 'Read']

interface ModelUsage {
  readonly inputTokens?: number
  readonly cacheReadInputTokens?: number
  readonly cacheCreationInputTokens?: number
  readonly outputTokens?: number
}

/**
 * The last `cost-state` line of each main session file: Claude Code's running total, carried across `-c`
 * and including its subagents' requests (so subagent files are not added again). Its `inputTokens` is the
 * uncached part; the cache figures are added to compare with the normalized input.
 */
// async: the interface's (OpenCode's total needs a child process); reading these files is quick and sync.
// eslint-disable-next-line @typescript-eslint/require-await
async function cumulative(files: readonly string[]): Promise<Cumulative | undefined> {
  let input = 0
  let output = 0
  let found = false
  for (const file of files.filter((f) => !f.includes('/subagents/'))) {
    let last: Record<string, ModelUsage> | undefined
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('{"type":"cost-state"')) continue
      try {
        last = (JSON.parse(line) as { modelUsage?: Record<string, ModelUsage> }).modelUsage ?? last
      } catch {
        // A torn line: the previous total stands.
      }
    }
    if (last === undefined) continue
    found = true
    for (const u of Object.values(last)) {
      input += (u.inputTokens ?? 0) + (u.cacheReadInputTokens ?? 0) + (u.cacheCreationInputTokens ?? 0)
      output += u.outputTokens ?? 0
    }
  }
  return found
    ? { source: 'last cost-state modelUsage per session', inputTokens: input, outputTokens: output }
    : undefined
}

export const claudeCode: AgentSpec = {
  name: 'claude-code',
  title: 'Claude Code',
  bin: 'claude',
  needsNode22: false,
  scenarios: scenariosOf({
    run: (prompt) => ['-p', prompt],
    tool: (prompt) => ['-p', prompt, ...TOOLS],
    resume: (prompt) => ['-c', '-p', prompt, ...TOOLS],
    subagent: (prompt) => ['-p', prompt, ...TOOLS, 'Agent', 'Task'],
    withRequestId: ['tool-resume', 'killed'],
  }),
  setup(ctx) {
    mkdirSync(join(ctx.home, '.claude'), { recursive: true })
  },
  env(ctx) {
    return {
      ANTHROPIC_BASE_URL: ctx.serverUrl,
      ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    }
  },
  dataDir: (home) => join(home, '.claude'),
  sessionFiles: (home) => walk(join(home, '.claude', 'projects')).filter((f) => f.endsWith('.jsonl')),
  cumulative,
}
