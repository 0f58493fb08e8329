// qwen-code ends with `await runExitCleanup(); process.exit(code)`. With a cleanup awaiting something
// nothing can settle and nothing else alive, the event loop used to empty mid-pass: the process just
// stopped (exit 13 in ESM for the unsettled top-level await, 0 in CommonJS), the later cleanups and the
// code after the await never ran. Now the stalled cleanup is given up on, the rest run, and the caller's
// own process.exit(code) decides, in ESM and in CommonJS.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { packageDir, readLines, spawnAgent, withTempDir, type Exit } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

/** qwen-code's pattern in CommonJS (no top-level await): an async main awaiting runExitCleanup(). */
const COMMONJS_PROGRAM = `
const { appendFileSync } = require('node:fs')
const { registerCleanup, runExitCleanup } = require('@sessiontape/shutdown')
const mark = (line) => appendFileSync(process.env.FIXTURE_MARKER, line + '\\n')
registerCleanup(() => mark('transcript:done'), { name: 'transcript', phase: 'last' })
registerCleanup(() => new Promise(() => {}), { name: 'stuck' })
registerCleanup(() => mark('mcp:done'), { name: 'mcp' })
async function main() {
  const report = await runExitCleanup()
  mark('after-await:' + report.cleanups.map((c) => c.name + '=' + c.status).join(','))
  process.exit(5)
}
void main()
`

const STUCK_THEN_OK = [
  { name: 'transcript', kind: 'ok', phase: 'last' },
  { name: 'stuck', kind: 'hang' },
  { name: 'mcp', kind: 'ok' },
]

describe('await runExitCleanup(); process.exit(code) with a never-settling cleanup', () => {
  it('ESM (top-level await): every cleanup runs, the code after the await runs, exit 5', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'run-then-exit',
        FIXTURE_EXIT_CODE: '5',
        FIXTURE_CLEANUPS: JSON.stringify(STUCK_THEN_OK),
      })
      expect(await fixture.exit).toEqual({ code: 5, signal: null })
      expect(await fixture.lines()).toEqual([
        'mcp:start',
        'mcp:done',
        'stuck:start',
        'transcript:start',
        'transcript:done',
        'after-await:mcp=ok,stuck=timed-out,transcript=ok',
      ])
    })
  })

  it('CommonJS (async main): the same, exit 5', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      // `node -e` runs CommonJS; tsx's hooks let require() load the package's TypeScript source.
      const child = spawn(
        process.execPath,
        ['--conditions=@sessiontape/source', '--import', 'tsx', '-e', COMMONJS_PROGRAM],
        { cwd: packageDir, env: { ...process.env, FIXTURE_MARKER: marker }, stdio: 'ignore' },
      )
      const exit = await new Promise<Exit>((resolve) =>
        child.once('close', (code, signal) => resolve({ code, signal })),
      )
      expect(exit).toEqual({ code: 5, signal: null })
      expect(await readLines(marker)).toEqual([
        'mcp:done',
        'transcript:done',
        'after-await:mcp=ok,stuck=timed-out,transcript=ok',
      ])
    })
  })

  it('gives up on the stalled cleanup when the loop empties, not after its 60 s timeout', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'run-then-exit',
        FIXTURE_OPTIONS: JSON.stringify({ cleanupTimeoutMs: 60_000, timeoutMs: 120_000 }),
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'stuck', kind: 'hang' }]),
      })
      // Bounded by the test timeout (20 s), far below the 60 s cleanup timeout: the stall detector ended it.
      expect(await fixture.exit).toEqual({ code: 0, signal: null })
      expect(await fixture.lines()).toEqual(['stuck:start', 'after-await:stuck=timed-out'])
    })
  })
})
