import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { runAgent } from '../run-agent.js'
import { scenariosOf, type AgentSpec, type Cumulative, type CumulativeContext } from './agent.js'

/**
 * OpenCode: OpenAI Chat Completions through `@ai-sdk/openai-compatible`; sessions only in SQLite,
 * $XDG_DATA_HOME/opencode/opencode.db (WAL mode: the -wal file holds the newest frames).
 */

const RUN = ['run', '--auto']

export function dataHome(home: string): string {
  return join(home, '.local', 'share', 'opencode')
}

/**
 * OpenCode's own running totals, from its `session` table (one row per session, subagent sessions included,
 * keyed on the working directory), read through its own `opencode db` command. Its `tokens_input` leaves the
 * cached part out and `tokens_output` the reasoning: both are added back to compare with normalized figures.
 */
async function cumulative(
  _files: readonly string[],
  where: CumulativeContext,
): Promise<Cumulative | undefined> {
  const dir = where.cwd.replaceAll("'", "''")
  const query =
    'select coalesce(sum(tokens_input + tokens_cache_read + tokens_cache_write), 0) as input, ' +
    `coalesce(sum(tokens_output + tokens_reasoning), 0) as output, count(*) as n from session where directory = '${dir}'`
  const run = await runAgent(where.bin, ['db', query, '--format', 'json'], {
    cwd: where.cwd,
    env: where.env,
    timeoutMs: 60_000,
  })
  try {
    const rows = JSON.parse(run.stdout) as { input?: number; output?: number; n?: number }[]
    const row = rows[0]
    if (row === undefined || (row.n ?? 0) === 0) return undefined
    return {
      source: 'opencode db: session table',
      inputTokens: row.input ?? 0,
      outputTokens: row.output ?? 0,
    }
  } catch {
    // Not JSON: no total to compare (the table shows '-').
    return undefined
  }
}

export const opencode: AgentSpec = {
  name: 'opencode',
  title: 'OpenCode',
  bin: 'opencode',
  needsNode22: false,
  scenarios: scenariosOf({ run: (prompt) => [...RUN, prompt], resume: (prompt) => [...RUN, '-c', prompt] }),
  setup(ctx) {
    const dir = join(ctx.home, '.config', 'opencode')
    mkdirSync(dir, { recursive: true })
    const config = {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: 'local/conf-model',
      provider: {
        local: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Conformance server',
          options: { baseURL: `${ctx.serverUrl}/v1`, apiKey: 'dummy' },
          models: { 'conf-model': { name: 'conf-model', tool_call: true } },
        },
      },
    }
    writeFileSync(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`)
  },
  env() {
    return {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    }
  },
  dataDir: (home) => dataHome(home),
  sessionFiles: (home) => walk(dataHome(home)).filter((f) => /\/opencode\.db(-wal)?$/.test(f)),
  cumulative,
}
