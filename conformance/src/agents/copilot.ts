import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { scenariosOf, type AgentSpec, type Cumulative } from './agent.js'

/**
 * Copilot CLI in its BYOK mode (`copilot help providers`: no GitHub sign-in): OpenAI Chat Completions by
 * default; sessions in ~/.copilot/session-state/<id>/events.jsonl.
 */

const RUN = ['--allow-all-tools', '-p']

interface ModelMetrics {
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number }
}

/**
 * The last `session.shutdown` event's per-model metrics of each session file, summed over models: Copilot's
 * own total, carried across `--continue` (the resumed run's shutdown counts the earlier run's requests too).
 */
// async: the interface's (OpenCode's total needs a child process); reading these files is quick and sync.
// eslint-disable-next-line @typescript-eslint/require-await
async function cumulative(files: readonly string[]): Promise<Cumulative | undefined> {
  let input = 0
  let output = 0
  let found = false
  for (const file of files) {
    let last: Record<string, ModelMetrics> | undefined
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"session.shutdown"')) continue
      try {
        const event = JSON.parse(line) as { data?: { modelMetrics?: Record<string, ModelMetrics> } }
        last = event.data?.modelMetrics ?? last
      } catch {
        // A torn line (the killed run): the previous total stands.
      }
    }
    if (last === undefined) continue
    found = true
    for (const metrics of Object.values(last)) {
      input += metrics.usage?.inputTokens ?? 0
      output += metrics.usage?.outputTokens ?? 0
    }
  }
  const source = 'last session.shutdown modelMetrics per session'
  return found ? { source, inputTokens: input, outputTokens: output } : undefined
}

export const copilot: AgentSpec = {
  name: 'copilot',
  title: 'Copilot CLI',
  bin: 'copilot',
  needsNode22: false,
  scenarios: scenariosOf({
    run: (prompt) => [...RUN, prompt],
    resume: (prompt) => ['--allow-all-tools', '--continue', '-p', prompt],
  }),
  setup(ctx) {
    mkdirSync(join(ctx.home, '.copilot'), { recursive: true })
  },
  env(ctx) {
    return {
      COPILOT_PROVIDER_BASE_URL: `${ctx.serverUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'dummy',
      COPILOT_MODEL: 'gpt-5.4',
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
    }
  },
  dataDir: (home) => join(home, '.copilot'),
  sessionFiles: (home) => walk(join(home, '.copilot', 'session-state')).filter((f) => f.endsWith('.jsonl')),
  cumulative,
}
