// A cleanup that never settles cannot hold the exit: its own timeout moves on to the next cleanup, the
// overall deadline ends the pass, and the report names what hung and what never started.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown, type CleanupContext } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('in a real process kept alive by an open handle', () => {
  it('a never-settling cleanup with the default bounds: its 2 s timeout passes, the next one runs, exit 0', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_KEEPALIVE: '1',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last' },
          { name: 'stuck', kind: 'hang-abortable' },
        ]),
      })
      await fixture.ready
      const started = Date.now()
      expect(await fixture.exit).toEqual({ code: 0, signal: null })
      expect(Date.now() - started).toBeLessThan(2000 + 2000)
      expect(await fixture.lines()).toEqual([
        'stuck:start',
        'stuck:aborted:ERR_CLEANUP_TIMEOUT',
        'transcript:start',
        'transcript:done',
      ])
      const json = await fixture.report()
      expect(json.cleanups).toMatchObject([
        { name: 'stuck', status: 'timed-out', error: { code: 'ERR_CLEANUP_TIMEOUT' } },
        { name: 'transcript', status: 'ok' },
      ])
      expect(json.deadlineExceeded).toBe(false)
    })
  })

  it('cleanups longer than the overall bound: the process still exits within bound + 2 s', async () => {
    await withTempDir(async (dir) => {
      const boundMs = 1500
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_EXIT_CODE: '7',
        FIXTURE_KEEPALIVE: '1',
        FIXTURE_OPTIONS: JSON.stringify({ timeoutMs: boundMs, cleanupTimeoutMs: 60_000 }),
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last', sync: true },
          { name: 'stuck', kind: 'hang' },
        ]),
      })
      await fixture.ready
      const started = Date.now()
      expect(await fixture.exit).toEqual({ code: 7, signal: null })
      expect(Date.now() - started).toBeLessThan(boundMs + 2000)
      // The transcript's async flush never started, so its sync variant ran on 'exit'.
      expect(await fixture.lines()).toEqual(['stuck:start', 'transcript:sync'])
      const json = await fixture.report()
      expect(json.deadlineExceeded).toBe(true)
      expect(json.cleanups).toMatchObject([
        { name: 'stuck', status: 'timed-out', error: { code: 'ERR_SHUTDOWN_DEADLINE' } },
        { name: 'transcript', status: 'not-started', durationMs: 0 },
      ])
    })
  })
})

describe('in-process, with injected process and streams', () => {
  it("aborts the cleanup's AbortSignal at its own timeout, with a CleanupTimeoutError", async () => {
    const shutdown = createShutdown(fakes())
    let seen: CleanupContext | undefined
    shutdown.registerCleanup(
      (context) => {
        seen = context
        return new Promise(() => {})
      },
      { name: 'socket', timeoutMs: 50 },
    )
    const report = await shutdown.runExitCleanup({ timeoutMs: 5000 })
    expect(seen?.timeoutMs).toBe(50)
    expect(seen?.signal.aborted).toBe(true)
    expect(seen?.signal.reason).toMatchObject({
      name: 'CleanupTimeoutError',
      code: 'ERR_CLEANUP_TIMEOUT',
      timeoutMs: 50,
    })
    expect(report.cleanups).toMatchObject([{ name: 'socket', status: 'timed-out' }])
    expect(report.cleanups[0]?.error).toBe(seen?.signal.reason)
  })

  it('caps a cleanup by the overall deadline when that is nearer, and names every cleanup left behind', async () => {
    const shutdown = createShutdown(fakes())
    const contexts: CleanupContext[] = []
    for (const name of ['c', 'b', 'a']) {
      shutdown.registerCleanup(
        (context) => {
          contexts.push(context)
          return new Promise(() => {})
        },
        { name, timeoutMs: 60_000 },
      )
    }
    const report = await shutdown.runExitCleanup({ timeoutMs: 100 })
    expect(contexts).toHaveLength(1)
    expect(contexts[0]?.timeoutMs).toBeLessThanOrEqual(100)
    expect(contexts[0]?.signal.reason).toMatchObject({ code: 'ERR_SHUTDOWN_DEADLINE' })
    expect(report.deadlineExceeded).toBe(true)
    expect(report.cleanups.map((c) => [c.name, c.status])).toEqual([
      ['a', 'timed-out'],
      ['b', 'not-started'],
      ['c', 'not-started'],
    ])
  })

  it('a signal first read after the cleanup was given up on is already aborted', async () => {
    const shutdown = createShutdown(fakes())
    let context: CleanupContext | undefined
    shutdown.registerCleanup(
      (received) => {
        context = received
        return new Promise(() => {})
      },
      { name: 'late-reader', timeoutMs: 20 },
    )
    await shutdown.runExitCleanup()
    expect(context?.signal.aborted).toBe(true)
    expect(context?.signal.reason).toMatchObject({ code: 'ERR_CLEANUP_TIMEOUT' })
  })

  it('a well-behaved cleanup never sees its signal aborted', async () => {
    const shutdown = createShutdown(fakes())
    let signal: AbortSignal | undefined
    shutdown.registerCleanup((context) => {
      signal = context.signal
    })
    const report = await shutdown.runExitCleanup()
    expect(signal?.aborted).toBe(false)
    expect(report.cleanups.map((c) => c.status)).toEqual(['ok'])
  })
})
