// Agent CLIs ship as bundles, built by whichever bundler their authors chose. Built by each common one with
// its default options and run from a folder with no node_modules, the example agent must work exactly as it
// does unbundled — a new session, then a resume of it — with the lazily loaded lock (proper-lockfile)
// bundled and working, the meta sidecar written, and nothing on stderr (before the fix: "Identifier
// 'createRequire' has already been declared" with the README's esbuild banner, "__filename is not defined"
// for the sidecar in ESM bundles, "Cannot find module 'write-file-atomic'" from webpack's CommonJS output).
// This bundles the workspace's dist/; scripts/check-packages.ts runs the same bundlers and the same check on
// the packed tarballs installed with npm.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { runBundledAgent } from './helpers/bundled-agent.js'
import {
  BUNDLERS,
  bundleWith,
  bundlerModules,
  newSessionThenResumeProblems,
  WORKSPACE_AGENT,
} from './helpers/bundlers.js'

// An agent whose entry module stops at a top-level await while it records. In a one-file rollup bundle the
// lazily imported proper-lockfile sits after the entry and has not run yet: there is no lock to take. The
// recorder must say so and how to get out of it, not fail on `undefined.default` in the lock's loader.
const TOP_LEVEL_AWAIT_AGENT = `
import { createRecorder } from '@sessiontape/recorder'
const recorder = createRecorder({ dir: process.argv[2]!, onError: () => {} })
recorder.record('user', { text: 'hello' })
await recorder.ready().catch((error: Error & { cause?: Error }) => {
  process.stderr.write(\`\${error.message}\\n\`)
})
`

// Each test bundles the agent with a real bundler (rollup and webpack take tens of seconds of CPU) and runs it
// twice: past the project's 120 s at load ~16 (the CPU-hog sweep beside other work). The timeout only
// catches a hang; the assertions are the test.
vi.setConfig({ testTimeout: 600_000 })

describe('the example agent bundled by every common bundler records, then resumes, from a bare folder', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let modules: string | undefined
  let skipReason = ''
  beforeAll(async () => {
    scratch = await scratchDir('bundlers')
    const installed = await bundlerModules()
    if ('modules' in installed) modules = installed.modules
    else skipReason = installed.reason
  })
  afterAll(() => scratch.remove())

  it.for(BUNDLERS)('%s', async (bundler, context) => {
    if (modules === undefined) {
      // The bundlers come from the npm registry; offline they cannot be had: skipped with that reason.
      context.skip(`rollup and webpack could not be installed: ${skipReason}`)
      return
    }
    const { file, folder } = await bundleWith(bundler, scratch.path, modules)
    const dir = join(scratch.path, bundler, 'sessions')
    expect(await newSessionThenResumeProblems(file, folder, dir)).toEqual([])
  })

  it('rollup-one-file, an entry at a top-level await: the lock failure names its cause', async (context) => {
    if (modules === undefined) {
      context.skip(`rollup could not be installed: ${skipReason}`)
      return
    }
    const sourceDir = join(scratch.path, 'top-level-await-source')
    await mkdir(sourceDir, { recursive: true })
    const entry = join(sourceDir, 'main.ts')
    await writeFile(entry, TOP_LEVEL_AWAIT_AGENT)
    const { file, folder } = await bundleWith('rollup-one-file', join(scratch.path, 'tla'), modules, {
      entry,
      nodeModules: WORKSPACE_AGENT.nodeModules,
    })
    const { stderr } = await runBundledAgent(file, [join(scratch.path, 'tla', 'sessions')], folder)
    expect(stderr).toContain('could not take the session lock')
    expect(stderr).toContain('start the agent from a function instead')
    expect(stderr).not.toContain("reading 'default'")
  })
})
