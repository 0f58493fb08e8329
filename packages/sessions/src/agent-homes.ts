import { stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Agent } from './model.js'

/** One place an agent keeps its sessions on this machine. */
export interface AgentHome {
  readonly agent: Agent
  readonly dir: string
  /** The variable that moved it, when one did (`CLAUDE_CONFIG_DIR`…); absent for the default. */
  readonly from?: string
}

type Env = Readonly<Record<string, string | undefined>>

/**
 * Every agent's session directories, in a fixed order — the one list that `list`, `search`, `usage`, the
 * catalog and the viewer's index read when given no path. Each is moved by the agent's own variable where
 * it has one; a relative or empty value is ignored (the agents resolve theirs against a cwd we do not know).
 *
 * - Claude Code: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`
 * - Codex CLI: `$CODEX_HOME/sessions` and `archived_sessions`, else under `~/.codex`
 * - Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp` (it stands for the home directory), else `~/.gemini/tmp`
 * - Qwen Code: `$QWEN_HOME/projects` (`<cwd slug>/chats/<id>.jsonl`) and the older `tmp`, else under `~/.qwen`
 * - Copilot CLI: `$COPILOT_HOME/session-state` and the older `history-session-state`, else under `~/.copilot`
 * - Cursor CLI: `~/.cursor/projects` and `~/.cursor/chats`
 * - OpenCode: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` (its `opencode.db`)
 * - sessiontape: `$SESSIONTAPE_SESSIONS_DIR`, else `~/.sessiontape/sessions`
 *
 * Pure: nothing is read. {@link existingAgentHomes} keeps the ones that are directories.
 */
export function agentHomes(env: Env = process.env, home: string = os.homedir()): AgentHome[] {
  const homes: AgentHome[] = []
  const add = (agent: Agent, variable: string | undefined, fallback: string, ...rest: string[]) => {
    const given = variable === undefined ? undefined : env[variable]
    const moved = given !== undefined && path.isAbsolute(given)
    homes.push({
      agent,
      dir: path.join(moved ? given : path.join(home, fallback), ...rest),
      ...(moved ? { from: variable } : {}),
    })
  }
  add('claude-code', 'CLAUDE_CONFIG_DIR', '.claude', 'projects')
  add('codex-cli', 'CODEX_HOME', '.codex', 'sessions')
  add('codex-cli', 'CODEX_HOME', '.codex', 'archived_sessions')
  // Gemini CLI's variable replaces the home directory, not its `.gemini` folder.
  add('gemini-cli', 'GEMINI_CLI_HOME', '', '.gemini', 'tmp')
  add('qwen-code', 'QWEN_HOME', '.qwen', 'projects')
  add('qwen-code', 'QWEN_HOME', '.qwen', 'tmp')
  add('copilot-cli', 'COPILOT_HOME', '.copilot', 'session-state')
  add('copilot-cli', 'COPILOT_HOME', '.copilot', 'history-session-state')
  add('cursor-cli', undefined, '.cursor', 'projects')
  add('cursor-cli', undefined, '.cursor', 'chats')
  add('opencode', 'XDG_DATA_HOME', path.join('.local', 'share'), 'opencode')
  add('sessiontape', 'SESSIONTAPE_SESSIONS_DIR', path.join('.sessiontape', 'sessions'))
  return homes
}

/** The homes of {@link agentHomes} that exist as directories (a missing one is an agent not installed). */
export async function existingAgentHomes(env?: Env, home?: string): Promise<AgentHome[]> {
  const found: AgentHome[] = []
  for (const candidate of agentHomes(env, home)) {
    const info = await stat(candidate.dir).catch(() => undefined)
    if (info?.isDirectory() === true) found.push(candidate)
  }
  return found
}

/**
 * The homes whose sessions are JSONL/JSON files a directory walk finds (all but OpenCode's database, which
 * is opened by its own reader).
 */
export function transcriptHomes(env?: Env, home?: string): AgentHome[] {
  return agentHomes(env, home).filter((candidate) => candidate.agent !== 'opencode')
}
