/**
 * The "must show": the example agent, copied into the scratch project that installed the packed
 * tarballs with plain npm, bundled by every bundler the examples e2e test uses, each bundle moved to a
 * folder with no node_modules and run twice (a new session, then a resume). The bundler configs, their
 * install cache and the check of the two runs are the e2e test's own (examples/test/helpers/bundlers.ts):
 * only the packages differ — the tarballs here, the workspace's dist/ there.
 */
import { cp, readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { agentEntry } from '../../examples/test/helpers/agent-process.js'
import {
  BUNDLERS,
  bundleWith,
  bundlerModules,
  newSessionThenResumeProblems,
  type BundlerName,
} from '../../examples/test/helpers/bundlers.js'

export interface BundlerLane {
  /** Why the bundlers could not be installed (the lane is skipped), or undefined when they were. */
  readonly skipped?: string
  /** One check per bundler: its label and the function returning its problems (empty = it works). */
  readonly checks: ReadonlyArray<{ readonly label: string; readonly run: () => Promise<readonly string[]> }>
}

/**
 * Copies the example agent's sources into `scratch/agent/` (which resolves the installed tarballs from
 * `scratch/node_modules`) and prepares one check per bundler, building under `work/bundles/<bundler>/`.
 */
export async function bundlerLane(scratch: string, work: string): Promise<BundlerLane> {
  const agentDir = join(scratch, 'agent')
  await cp(dirname(agentEntry), agentDir, { recursive: true })
  const installed = await bundlerModules()
  if (!('modules' in installed)) return { skipped: installed.reason, checks: [] }
  const { modules } = installed
  const source = { entry: join(agentDir, 'main.ts'), nodeModules: join(scratch, 'node_modules') }
  const bundles = join(work, 'bundles')
  const check = (bundler: BundlerName) => ({
    label: `${bundler}: bundle the npm-installed packages, run it from a bare folder (new, then resume)`,
    run: async () => {
      const { file, folder } = await bundleWith(bundler, bundles, modules, source)
      // The folder the bundle runs from holds the bundle and nothing else, no node_modules above it.
      const shipped = await readdir(folder)
      if (shipped.includes('node_modules')) return [`${folder} has a node_modules`]
      return newSessionThenResumeProblems(file, folder, join(bundles, bundler, 'sessions'))
    },
  })
  return { checks: BUNDLERS.map(check) }
}
