import os from 'node:os'
import path from 'node:path'

/** One place an agent keeps its sessions. */
export interface SessionRoot {
  /** Whose sessions live there (what `--agent` matches before a file is read). */
  readonly agent: string
  readonly dir: string
}

/**
 * Every agent's usual session directories, as each agent documents or writes them (environment overrides
 * first). Missing ones are skipped by the walk; none of them is ever written.
 *
 * - Claude Code: `$CLAUDE_CONFIG_DIR/projects` or `~/.claude/projects/<project>/<session>.jsonl`
 * - Codex CLI: `$CODEX_HOME/sessions` or `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`
 * - Gemini CLI: `~/.gemini/tmp/<project hash>/chats/session-*.json[l]`
 * - Qwen Code: `~/.qwen/projects/<project>/chats/<session>.jsonl`
 * - Copilot CLI: `~/.copilot/session-state/` (and the older `history-session-state/`)
 * - Cursor CLI: `~/.cursor/projects/` and `~/.cursor/chats/`
 * - sessiontape: `$SESSIONTAPE_SESSIONS_DIR` or `~/.sessiontape/sessions`
 */
export function defaultSessionRoots(
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
): SessionRoot[] {
  const under = (variable: string | undefined, ...rest: string[]): string | undefined =>
    variable !== undefined && path.isAbsolute(variable) ? path.join(variable, ...rest) : undefined
  return [
    {
      agent: 'claude-code',
      dir: under(env.CLAUDE_CONFIG_DIR, 'projects') ?? path.join(home, '.claude', 'projects'),
    },
    { agent: 'codex-cli', dir: under(env.CODEX_HOME, 'sessions') ?? path.join(home, '.codex', 'sessions') },
    { agent: 'gemini-cli', dir: path.join(home, '.gemini', 'tmp') },
    { agent: 'qwen-code', dir: path.join(home, '.qwen', 'projects') },
    { agent: 'copilot-cli', dir: path.join(home, '.copilot', 'session-state') },
    { agent: 'copilot-cli', dir: path.join(home, '.copilot', 'history-session-state') },
    { agent: 'cursor-cli', dir: path.join(home, '.cursor', 'projects') },
    { agent: 'cursor-cli', dir: path.join(home, '.cursor', 'chats') },
    {
      agent: 'sessiontape',
      dir: under(env.SESSIONTAPE_SESSIONS_DIR) ?? path.join(home, '.sessiontape', 'sessions'),
    },
  ]
}
