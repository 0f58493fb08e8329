import { stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Agent } from '../model.js'

/** Where an agent keeps its sessions on this machine. */
export interface AgentHome {
  readonly agent: Agent
  readonly dir: string
}

/**
 * The directories each agent writes its sessions to by default, each overridable by the agent's own
 * variable where it has one (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `COPILOT_HOME`), in a fixed order. Gemini
 * CLI and Qwen Code are read from `~/.gemini/tmp` and `~/.qwen/projects`.
 */
export function agentHomes(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = os.homedir(),
): AgentHome[] {
  const from = (name: string, fallback: string) => {
    const given = env[name]
    return given !== undefined && given !== '' ? given : path.join(home, fallback)
  }
  return [
    { agent: 'claude-code', dir: path.join(from('CLAUDE_CONFIG_DIR', '.claude'), 'projects') },
    { agent: 'codex-cli', dir: path.join(from('CODEX_HOME', '.codex'), 'sessions') },
    { agent: 'gemini-cli', dir: path.join(home, '.gemini', 'tmp') },
    { agent: 'qwen-code', dir: path.join(home, '.qwen', 'projects') },
    { agent: 'copilot-cli', dir: path.join(from('COPILOT_HOME', '.copilot'), 'session-state') },
  ]
}

/** The agent homes of {@link agentHomes} that exist as directories (`usage` with no path reads these). */
export async function existingAgentHomes(
  env?: Readonly<Record<string, string | undefined>>,
  home?: string,
): Promise<AgentHome[]> {
  const found: AgentHome[] = []
  for (const candidate of agentHomes(env, home)) {
    const info = await stat(candidate.dir).catch(() => undefined)
    if (info?.isDirectory() === true) found.push(candidate)
  }
  return found
}
