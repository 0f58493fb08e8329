import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { walk } from '../files.js'
import { scenariosOf, type AgentSpec } from './agent.js'

/**
 * Gemini CLI: Gemini API (a router `generateContent` call, then `streamGenerateContent?alt=sse`); sessions in
 * ~/.gemini/tmp/<project>/chats/session-*.jsonl, a subagent's in chats/<session id>/<id>.jsonl. Needs Node 22.
 */

const RUN = ['--yolo', '-p']

export const gemini: AgentSpec = {
  name: 'gemini',
  title: 'Gemini CLI',
  bin: 'gemini',
  needsNode22: true,
  scenarios: scenariosOf({
    run: (prompt) => [...RUN, prompt],
    resume: (prompt) => ['--yolo', '--resume', 'latest', '-p', prompt],
  }),
  setup(ctx) {
    const dir = join(ctx.home, '.gemini')
    mkdirSync(dir, { recursive: true })
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }
    writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`)
  },
  env(ctx) {
    return { GOOGLE_GEMINI_BASE_URL: ctx.serverUrl, GEMINI_API_KEY: 'dummy', GEMINI_CLI_NO_RELAUNCH: 'true' }
  },
  dataDir: (home) => join(home, '.gemini'),
  sessionFiles: (home) =>
    // Subagents write chats/<parent session id>/<subagent id>.jsonl beside the parent's session file.
    walk(join(home, '.gemini', 'tmp')).filter((f) => /\/chats\/.*\.jsonl?$/.test(f)),
}
