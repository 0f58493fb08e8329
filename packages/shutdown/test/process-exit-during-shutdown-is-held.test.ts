// A cleanup, a sync variant or an 'exit' listener that calls process.exit() during a shutdown used to end
// the process on the spot: the later cleanups, the report, the drain, and every 'exit' listener after it
// (the recorder's exit drain: 1,000 accepted records lost) never ran, and `exit(7)` came with no report.
// Now the call is held for the duration: the exit still happens once, after the remaining work, it is
// named in the report, and a failure it asks for is never turned into a success.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown, formatReport } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('in a real process', () => {
  it('a cleanup calling process.exit(7) during gracefulExit(0): the rest run, the report names it, exit 7', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_EXIT_LISTENER: '1',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'slow', ms: 30, phase: 'last' },
          { name: 'quitter', kind: 'process-exit', code: 7 },
        ]),
      })
      expect(await fixture.exit).toEqual({ code: 7, signal: null })
      expect(await fixture.lines()).toEqual([
        'quitter:start',
        // The call returned: the rest of that cleanup ran too.
        'quitter:done',
        'transcript:start',
        'transcript:done',
        'exit-listener:7',
      ])
      const json = await fixture.report()
      expect(json.exitCode).toBe(7)
      expect(json.laterReasons).toEqual([{ type: 'process-exit', code: 7, cleanup: 'quitter' }])
    })
  })

  it('a cleanup calling process.exit(7) during runExitCleanup() starts a graceful exit with 7', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'run-then-exit',
        FIXTURE_EXIT_CODE: '0',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'slow', ms: 30, phase: 'last' },
          { name: 'quitter', kind: 'process-exit', code: 7 },
        ]),
      })
      expect(await fixture.exit).toEqual({ code: 7, signal: null })
      const lines = await fixture.lines()
      expect(lines.slice(0, 4)).toEqual([
        'quitter:start',
        'quitter:done',
        'transcript:start',
        'transcript:done',
      ])
      const json = await fixture.report()
      expect(json.reason).toEqual({ type: 'process-exit', code: 7, cleanup: 'quitter' })
      expect(json.exitCode).toBe(7)
    })
  })

  it("a sync variant calling process.exit(9) on 'exit' does not cut off the 'exit' listeners after it", async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'process-exit', // a direct process.exit(3) by third-party code
        FIXTURE_EXIT_LISTENER: '1',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last', sync: true },
          { name: 'lockfile', kind: 'ok', sync: true, syncExit: 9 },
        ]),
      })
      // The first failure code stands (3); the remaining sync variant and the later listener both ran.
      expect(await fixture.exit).toEqual({ code: 3, signal: null })
      expect(await fixture.lines()).toEqual(['lockfile:sync', 'transcript:sync', 'exit-listener:3'])
      expect(fixture.stderr()).toMatch(/process\.exit\(9\) in cleanup "lockfile" during exit: held/)
    })
  })

  it('a sync variant calling process.exit(9) after a successful graceful exit makes it a failure (9)', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_KEEPALIVE: '1',
        FIXTURE_EXIT_LISTENER: '1',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last', sync: true },
          { name: 'stuck', kind: 'hang', timeoutMs: 50, sync: true, syncExit: 9 },
        ]),
      })
      expect(await fixture.exit).toEqual({ code: 9, signal: null })
      expect(await fixture.lines()).toEqual([
        'stuck:start',
        'transcript:start',
        'transcript:done',
        'stuck:sync',
        'exit-listener:9',
      ])
    })
  })
})

describe('in-process', () => {
  it('during a signal exit, a process.exit(7) is recorded and the signal keeps the exit', async () => {
    const parts = fakes()
    const reports: string[] = []
    const shutdown = createShutdown({ ...parts, onReport: (r) => reports.push(formatReport(r)) })
    shutdown.registerCleanup(() => parts.process.exit(7), { name: 'quitter' })
    shutdown.triggerShutdown('SIGTERM')
    const report = await shutdown.gracefulExit()
    expect(parts.process.exits).toEqual([143])
    expect(report.exitCode).toBe(143)
    expect(report.laterReasons).toContainEqual({ type: 'process-exit', code: 7, cleanup: 'quitter' })
    expect(reports.join('')).toContain('also: process.exit(7) in cleanup "quitter"')
  })

  it('process.exit is the original again once a runExitCleanup() pass is over', async () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    let heldDuring = false
    shutdown.registerCleanup(() => {
      // The fake's exit is inherited from its class; holding it puts a wrapper on the object itself.
      heldDuring = Object.hasOwn(parts.process, 'exit')
    })
    await shutdown.runExitCleanup()
    expect(heldDuring).toBe(true)
    expect(Object.hasOwn(parts.process, 'exit')).toBe(false)
    parts.process.exit(4)
    expect(parts.process.exits).toEqual([4])
  })
})
