import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { scenariosOf, type AgentSpec, type Cumulative } from './agent.js'

/** Codex CLI: OpenAI Responses; rollouts in $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl. */

const EXEC = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox']

/** The last `token_count` event's `total_token_usage` of each rollout: Codex's own running total. */
// async: the interface's (OpenCode's total needs a child process); reading these files is quick and sync.
// eslint-disable-next-line @typescript-eslint/require-await
async function cumulative(files: readonly string[]): Promise<Cumulative | undefined> {
  let input = 0
  let output = 0
  let found = false
  for (const file of files) {
    let last: Record<string, number> | undefined
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"token_count"')) continue
      try {
        const parsed = JSON.parse(line) as {
          payload?: { info?: { total_token_usage?: Record<string, number> } }
        }
        last = parsed.payload?.info?.total_token_usage ?? last
      } catch {
        // A torn line (the killed run): the totals before it stand.
      }
    }
    if (last === undefined) continue
    found = true
    input += last['input_tokens'] ?? 0
    output += last['output_tokens'] ?? 0
  }
  return found
    ? { source: 'last token_count total_token_usage per rollout', inputTokens: input, outputTokens: output }
    : undefined
}

export const codex: AgentSpec = {
  name: 'codex',
  title: 'Codex CLI',
  bin: 'codex',
  needsNode22: false,
  scenarios: scenariosOf({
    run: (prompt) => [...EXEC, prompt],
    resume: (prompt) => [...EXEC, 'resume', '--last', prompt],
  }),
  setup(ctx) {
    const dir = join(ctx.home, '.codex')
    mkdirSync(dir, { recursive: true })
    const config = [
      'model = "gpt-5.1-codex"',
      'model_provider = "local"',
      '',
      '[model_providers.local]',
      'name = "local"',
      `base_url = "${ctx.serverUrl}/v1"`,
      'env_key = "LOCAL_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ]
    writeFileSync(join(dir, 'config.toml'), config.join('\n'))
  },
  env(ctx) {
    return { CODEX_HOME: join(ctx.home, '.codex'), LOCAL_API_KEY: 'dummy' }
  },
  dataDir: (home) => join(home, '.codex'),
  sessionFiles: (home) => walk(join(home, '.codex', 'sessions')).filter((f) => /\.jsonl(\.zst)?$/.test(f)),
  cumulative,
}
