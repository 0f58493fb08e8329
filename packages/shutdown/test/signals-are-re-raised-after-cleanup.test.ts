// Each handled signal runs the cleanups and reports; then the process ends *by that signal* (our handler
// removed, the signal sent again as the last 'exit' listener), so a parent — a shell stopping a script on
// Ctrl-C, a supervisor — sees a death by signal, not a normal exit. The report says 128 + n, what `$?`
// shows either way. Run through the module-level functions exactly as an agent would use them.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { FakeProcess, fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe.for([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s', ([signal, expected]) => {
  it(`runs every cleanup and every later 'exit' listener, reports ${expected}, then dies by ${signal}`, async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_SIGNALS: '{}',
        FIXTURE_EXIT_LISTENER: '1',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'slow', ms: 50, phase: 'last' },
          { name: 'mcp', kind: 'ok' },
        ]),
      })
      await fixture.ready
      fixture.child.kill(signal)
      expect(await fixture.exit).toEqual({ code: null, signal })
      expect(await fixture.lines()).toEqual([
        'mcp:start',
        'mcp:done',
        'transcript:start',
        'transcript:done',
        // An 'exit' listener added after ours (the recorder's exit drain is one) still ran first.
        `exit-listener:${expected}`,
      ])
      const json = await fixture.report()
      expect(json.reason).toEqual({ type: 'signal', signal })
      expect(json.exitCode).toBe(expected)
      expect(json.cleanups.map((c) => [c.name, c.status])).toEqual([
        ['mcp', 'ok'],
        ['transcript', 'ok'],
      ])
    })
  })
})

describe('with another SIGINT listener in the process (signal-exit, as proper-lockfile loads it)', () => {
  it('still ends by SIGINT: the leftover listener cannot catch the re-raised signal', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_SIGNALS: '{}',
        FIXTURE_FOREIGN_SIGINT: '1',
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'mcp', kind: 'ok' }]),
      })
      await fixture.ready
      fixture.child.kill('SIGINT')
      expect(await fixture.exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(await fixture.lines()).toEqual(['mcp:start', 'mcp:done'])
    })
  })
})

describe('with reraiseSignals: false', () => {
  it('exits 128 + n instead (SIGTERM → 143), after the same cleanups', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_SIGNALS: '{}',
        FIXTURE_OPTIONS: JSON.stringify({ reraiseSignals: false }),
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'mcp', kind: 'ok' }]),
      })
      await fixture.ready
      fixture.child.kill('SIGTERM')
      expect(await fixture.exit).toEqual({ code: 143, signal: null })
      expect(await fixture.lines()).toEqual(['mcp:start', 'mcp:done'])
    })
  })
})

describe('without installSignalHandlers()', () => {
  it("leaves SIGINT to Node's default: the process dies by the signal and no cleanup runs", async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, { FIXTURE_CLEANUPS: JSON.stringify([{ name: 'a', kind: 'ok' }]) })
      await fixture.ready
      fixture.child.kill('SIGINT')
      expect(await fixture.exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(await fixture.lines()).toEqual([])
    })
  })
})

describe('in-process, with an injected process', () => {
  class KillableFake extends FakeProcess {
    readonly pid = 4242
    readonly kills: Array<[number, string]> = []
    kill(pid: number, signal: string): void {
      this.kills.push([pid, signal])
    }
  }

  it('sends the signal to its own pid after exit(128 + n), as the last exit listener', async () => {
    const parts = fakes()
    const process = new KillableFake()
    const order: string[] = []
    const shutdown = createShutdown({ ...parts, process, onReport: () => {} })
    shutdown.triggerShutdown('SIGTERM')
    process.on('exit', () => order.push(`exit listener, kills so far: ${process.kills.length}`))
    await shutdown.gracefulExit()
    expect(process.exits).toEqual([143])
    expect(process.kills).toEqual([[4242, 'SIGTERM']])
    expect(order).toEqual(['exit listener, kills so far: 0'])
  })

  it('on Windows exits 128 + n and never re-raises (process.kill would terminate with code 1)', async () => {
    const parts = fakes()
    const process = new KillableFake('win32')
    const shutdown = createShutdown({ ...parts, process, onReport: () => {} })
    shutdown.triggerShutdown('SIGINT')
    await shutdown.gracefulExit()
    expect(process.exits).toEqual([130])
    expect(process.kills).toEqual([])
  })

  it('a non-signal exit never re-raises', async () => {
    const parts = fakes()
    const process = new KillableFake()
    const shutdown = createShutdown({ ...parts, process, onReport: () => {} })
    await shutdown.gracefulExit(0)
    expect(process.kills).toEqual([])
  })
})
