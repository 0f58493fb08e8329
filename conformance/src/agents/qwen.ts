import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { scenariosOf, type AgentSpec } from './agent.js'

/** Qwen Code: OpenAI Chat Completions; chats in ~/.qwen/projects/<cwd-slug>/chats/<id>.jsonl. Needs Node 22. */

const RUN = ['--auth-type', 'openai', '--yolo']

export const qwen: AgentSpec = {
  name: 'qwen',
  title: 'Qwen Code',
  bin: 'qwen',
  needsNode22: true,
  scenarios: scenariosOf({ run: (prompt) => [...RUN, prompt], resume: (prompt) => [...RUN, '-c', prompt] }),
  setup(ctx) {
    mkdirSync(join(ctx.home, '.qwen'), { recursive: true })
  },
  env(ctx) {
    return {
      OPENAI_BASE_URL: `${ctx.serverUrl}/v1`,
      OPENAI_API_KEY: 'dummy',
      OPENAI_MODEL: 'qwen3-coder-plus',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    }
  },
  dataDir: (home) => join(home, '.qwen'),
  sessionFiles: (home) => walk(join(home, '.qwen', 'projects')).filter((f) => /\/chats\/.*\.jsonl$/.test(f)),
}
