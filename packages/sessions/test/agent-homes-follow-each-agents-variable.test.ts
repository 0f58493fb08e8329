import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { agentHomes, existingAgentHomes } from '@sessiontape/sessions'
import { defaultSessionRoots } from '@sessiontape/sessions/catalog'

const HOME = '/home/fake'

describe('agent homes', () => {
  it('are every agent’s default directories under HOME when no variable is set', () => {
    expect(agentHomes({}, HOME).map(({ agent, dir }) => `${agent} ${dir}`)).toEqual([
      'claude-code /home/fake/.claude/projects',
      'codex-cli /home/fake/.codex/sessions',
      'codex-cli /home/fake/.codex/archived_sessions',
      'gemini-cli /home/fake/.gemini/tmp',
      'qwen-code /home/fake/.qwen/projects',
      'qwen-code /home/fake/.qwen/tmp',
      'copilot-cli /home/fake/.copilot/session-state',
      'copilot-cli /home/fake/.copilot/history-session-state',
      'cursor-cli /home/fake/.cursor/projects',
      'cursor-cli /home/fake/.cursor/chats',
      'opencode /home/fake/.local/share/opencode',
      'sessiontape /home/fake/.sessiontape/sessions',
    ])
  })

  describe.for([
    ['CLAUDE_CONFIG_DIR', '/cfg/claude', ['/cfg/claude/projects']],
    ['CODEX_HOME', '/cfg/codex', ['/cfg/codex/sessions', '/cfg/codex/archived_sessions']],
    ['GEMINI_CLI_HOME', '/cfg/gem', ['/cfg/gem/.gemini/tmp']],
    ['QWEN_HOME', '/cfg/qwen', ['/cfg/qwen/projects', '/cfg/qwen/tmp']],
    ['COPILOT_HOME', '/cfg/cop', ['/cfg/cop/session-state', '/cfg/cop/history-session-state']],
    ['XDG_DATA_HOME', '/cfg/data', ['/cfg/data/opencode']],
    ['SESSIONTAPE_SESSIONS_DIR', '/cfg/ours', ['/cfg/ours']],
  ] as const)('%s', ([variable, value, expected]) => {
    it('moves that agent’s homes, and only those', () => {
      const moved = agentHomes({ [variable]: value }, HOME)
      const base = agentHomes({}, HOME)
      expect(moved.filter((h) => h.from === variable).map((h) => h.dir)).toEqual(expected)
      const untouched = moved.filter((h) => h.from === undefined).map((h) => h.dir)
      expect(untouched).toEqual(base.map((h) => h.dir).filter((dir) => untouched.includes(dir)))
      expect(untouched.length).toBe(base.length - expected.length)
    })
    it('ignores a relative value (the agent would resolve it against a cwd we do not know)', () => {
      expect(agentHomes({ [variable]: 'relative/dir' }, HOME)).toEqual(agentHomes({}, HOME))
    })
  })

  it('are what the catalog walks (all but OpenCode’s database directory)', () => {
    const env = { CLAUDE_CONFIG_DIR: '/cfg/claude', QWEN_HOME: '/cfg/qwen' }
    expect(defaultSessionRoots(env, HOME)).toEqual(
      agentHomes(env, HOME)
        .filter((h) => h.agent !== 'opencode')
        .map(({ agent, dir }) => ({ agent, dir })),
    )
  })

  const root = mkdtemp(path.join(os.tmpdir(), 'agent-homes-'))
  afterAll(async () => rm(await root, { recursive: true, force: true }))

  it('that exist are found under a fake HOME, a variable’s directory instead of the default', async () => {
    const home = await root
    await mkdir(path.join(home, '.claude', 'projects'), { recursive: true })
    await mkdir(path.join(home, '.codex', 'sessions'), { recursive: true })
    await mkdir(path.join(home, 'qwen-elsewhere', 'projects'), { recursive: true })
    await mkdir(path.join(home, '.qwen', 'projects'), { recursive: true })
    const found = await existingAgentHomes({ QWEN_HOME: path.join(home, 'qwen-elsewhere') }, home)
    expect(found.map((h) => path.relative(home, h.dir))).toEqual([
      '.claude/projects',
      '.codex/sessions',
      'qwen-elsewhere/projects',
    ])
  })
})
