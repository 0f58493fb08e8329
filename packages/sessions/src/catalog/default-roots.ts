import os from 'node:os'
import { transcriptHomes } from '../agent-homes.js'

/** One place an agent keeps its sessions. */
export interface SessionRoot {
  /** Whose sessions live there (what `--agent` matches before a file is read). */
  readonly agent: string
  readonly dir: string
}

/**
 * Every agent's usual session directories that a walk finds transcripts in: the shared list of
 * `agent-homes.ts` (environment overrides first), without OpenCode's database directory. Missing ones are
 * skipped by the walk; none of them is ever written.
 */
export function defaultSessionRoots(
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
): SessionRoot[] {
  return transcriptHomes(env, home).map(({ agent, dir }) => ({ agent, dir }))
}
