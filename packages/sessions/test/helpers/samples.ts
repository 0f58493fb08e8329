import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

/**
 * Other agents' transcripts kept beside the repository (../shared/samples, see its README), never copied
 * into it; `SESSIONTAPE_SAMPLES` points elsewhere (a worktree outside the checkout's parent). Tests that use
 * them skip when they are absent.
 */
export const SAMPLES =
  process.env.SESSIONTAPE_SAMPLES ?? path.resolve(import.meta.dirname, '../../../../../shared/samples')

/** The sample files of one agent (recursively), or none when the folder is absent. */
export function samplesOf(agent: string): string[] {
  const dir = path.join(SAMPLES, agent)
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
}
