// The process exits exactly once: the first exit reason owns the exit code, every later one is recorded
// in the report, a second gracefulExit() gets the same promise, and process.exitCode is set before any
// asynchronous work so even a natural end of the event loop exits with the right code.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown, type ShutdownReport } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

const quiet = { onReport: () => {} }

describe('exit once', () => {
  it('a second gracefulExit() returns the same promise; cleanups run and exit is called once', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    let runs = 0
    shutdown.registerCleanup(() => void runs++)
    const first = shutdown.gracefulExit(0)
    const second = shutdown.gracefulExit(0)
    expect(second).toBe(first)
    await first
    expect(runs).toBe(1)
    expect(parts.process.exits).toEqual([0])
  })

  it('sets process.exitCode synchronously, before any cleanup has started', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    const ran: string[] = []
    shutdown.registerCleanup(() => void ran.push('cleanup'))
    const exiting = shutdown.gracefulExit(3)
    expect(parts.process.exitCode).toBe(3)
    expect(ran).toEqual([])
    await exiting
    expect(ran).toEqual(['cleanup'])
  })

  it('the first reason owns the exit code; later reasons are recorded in order', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    shutdown.registerCleanup(() => new Promise((resolve) => setTimeout(resolve, 30)))
    const exiting = shutdown.gracefulExit(0)
    shutdown.triggerShutdown('SIGTERM')
    void shutdown.gracefulExit(2)
    const report = await exiting
    expect(parts.process.exits).toEqual([0])
    expect(report.reason).toEqual({ type: 'exit', code: 0 })
    expect(report.exitCode).toBe(0)
    expect(report.laterReasons).toEqual([
      { type: 'signal', signal: 'SIGTERM' },
      { type: 'exit', code: 2 },
    ])
  })

  it('a signal first: a later gracefulExit(1) keeps 130', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    shutdown.triggerShutdown('SIGINT')
    const report = await shutdown.gracefulExit(1)
    expect(parts.process.exits).toEqual([130])
    expect(report.exitCode).toBe(130)
    expect(report.laterReasons).toEqual([{ type: 'exit', code: 1 }])
  })

  it('runExitCleanup() then gracefulExit(): the cleanups still run once, the exit uses gracefulExit’s code', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    let runs = 0
    shutdown.registerCleanup(() => void runs++)
    const ran = await shutdown.runExitCleanup()
    expect(ran.exitCode).toBeNull()
    expect(ran.reason).toEqual({ type: 'run' })
    const exited = await shutdown.gracefulExit(4)
    expect(runs).toBe(1)
    expect(parts.process.exits).toEqual([4])
    expect(exited.exitCode).toBe(4)
  })

  it('a signal during a runExitCleanup() pass: the exit report names the signal that owns the code', async () => {
    const parts = fakes()
    const delivered: ShutdownReport[] = []
    const shutdown = createShutdown({ ...parts, onReport: (report) => void delivered.push(report) })
    shutdown.registerCleanup(() => new Promise((resolve) => setTimeout(resolve, 30)), { name: 'flush' })
    const running = shutdown.runExitCleanup()
    shutdown.triggerShutdown('SIGTERM')
    const exited = await shutdown.gracefulExit(0)
    expect((await running).reason).toEqual({ type: 'run' })
    expect(parts.process.exits).toEqual([143])
    expect(delivered).toEqual([exited])
    expect(exited.reason).toEqual({ type: 'signal', signal: 'SIGTERM' })
    expect(exited.exitCode).toBe(143)
    expect(exited.cleanups).toMatchObject([{ name: 'flush', status: 'ok' }])
  })

  it('a cleanup registered after a finished runExitCleanup() pass is run by the exit, and reported', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    const ran: string[] = []
    shutdown.registerCleanup(() => void ran.push('early'), { name: 'early' })
    await shutdown.runExitCleanup()
    shutdown.registerCleanup(() => void ran.push('late'), { name: 'late' })
    const report = await shutdown.gracefulExit(0)
    expect(ran).toEqual(['early', 'late'])
    expect(report.cleanups).toMatchObject([
      { name: 'early', status: 'ok' },
      { name: 'late', status: 'ok' },
    ])
    expect(parts.process.exits).toEqual([0])
  })

  it("'beforeExit' during the pass (nothing can settle the running cleanup): it is given up on, the next runs", async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    const ran: string[] = []
    shutdown.registerCleanup(() => void ran.push('next'), { name: 'next' })
    shutdown.registerCleanup(() => new Promise(() => {}), { name: 'stalled', timeoutMs: 60_000 })
    const exiting = shutdown.gracefulExit(2, { timeoutMs: 60_000 })
    await new Promise((resolve) => setTimeout(resolve, 10))
    parts.process.emit('beforeExit', 2)
    const report = await exiting
    expect(ran).toEqual(['next'])
    expect(report.cleanups).toMatchObject([
      { name: 'stalled', status: 'timed-out', error: { code: 'ERR_CLEANUP_STALLED' } },
      { name: 'next', status: 'ok' },
    ])
    expect(parts.process.exits).toEqual([2])
    expect(parts.process.listenerCount('beforeExit')).toBe(0)
  })

  it('an exit joining a longer runExitCleanup() pass still ends within its own bound', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet, drainTimeoutMs: 0 })
    shutdown.registerCleanup(() => new Promise(() => {}), { name: 'stuck', timeoutMs: 60_000 })
    const running = shutdown.runExitCleanup({ timeoutMs: 60_000 })
    const started = Date.now()
    const report = await shutdown.gracefulExit(0, { timeoutMs: 200 })
    expect(Date.now() - started).toBeLessThan(200 + 2000)
    expect(parts.process.exits).toEqual([0])
    expect(report.deadlineExceeded).toBe(true)
    expect(report.cleanups).toMatchObject([
      { name: 'stuck', status: 'timed-out', error: { code: 'ERR_SHUTDOWN_DEADLINE' } },
    ])
    expect((await running).deadlineExceeded).toBe(true)
  })

  it('a forced exit racing the graceful path still calls exit once', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, ...quiet })
    shutdown.registerCleanup(() => new Promise(() => {}), { timeoutMs: 60_000 })
    shutdown.installSignalHandlers()
    parts.process.emit('SIGINT', 'SIGINT')
    const exiting = shutdown.gracefulExit(0)
    await new Promise((resolve) => setTimeout(resolve, 250))
    parts.process.emit('SIGINT', 'SIGINT')
    expect(parts.process.exits).toEqual([130])
    const report = await exiting
    expect(report.exitCode).toBe(130)
    expect(report.forced).toBe(true)
    expect(parts.process.exits).toEqual([130])
  })
})

describe('in a real process whose event loop drains during cleanup', () => {
  it('gives up on the stalled cleanup, runs the next, reports, and exits with the requested code', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_EXIT_CODE: '5',
        // `orphan` (registered last, runs first) awaits a promise nothing will ever resolve, with nothing
        // else keeping the loop alive; `transcript` runs after it.
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', sync: true },
          { name: 'orphan', kind: 'hang', sync: true },
        ]),
        // Bounds that must not be what ends it: the report's ERR_CLEANUP_STALLED (not a timeout's code) says
        // the drained loop did, however long a loaded machine takes to start the process.
        FIXTURE_OPTIONS: JSON.stringify({ timeoutMs: 60_000, cleanupTimeoutMs: 60_000 }),
      })
      const ended = await fixture.exit
      expect(ended).toEqual({ code: 5, signal: null })
      expect(await fixture.lines()).toEqual([
        'orphan:start',
        'transcript:start',
        'transcript:done',
        'orphan:sync',
      ])
      const json = await fixture.report()
      expect(json.exitCode).toBe(5)
      expect(json.cleanups).toMatchObject([
        { name: 'orphan', status: 'timed-out', error: { code: 'ERR_CLEANUP_STALLED' } },
        { name: 'transcript', status: 'ok' },
      ])
    })
  })
})
