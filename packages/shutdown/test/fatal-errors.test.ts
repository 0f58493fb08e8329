// Opt-in fatal-error handling: an uncaught exception or unhandled rejection is printed, the cleanups run,
// and the process exits 1. During a shutdown already under way (SIGINT) it is recorded, and the SIGINT ending (130) stays.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe.for([
  ['throw', 'uncaughtException', 'boom'],
  ['reject', 'unhandledRejection', 'rejected boom'],
] as const)('with installFatalHandlers(), an %s', ([action, origin, message]) => {
  it(`is printed, reported as ${origin}, the cleanups run, exit 1`, async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_FATAL: '1',
        FIXTURE_ACTION: action,
        FIXTURE_KEEPALIVE: '1',
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'transcript', kind: 'slow', ms: 50, phase: 'last' }]),
      })
      expect(await fixture.exit).toEqual({ code: 1, signal: null })
      expect(fixture.stderr()).toContain(`${origin}: Error: ${message}`)
      expect(await fixture.lines()).toEqual(['transcript:start', 'transcript:done'])
      const json = await fixture.report()
      expect(json.reason).toMatchObject({ type: 'fatal', origin })
      expect(json.exitCode).toBe(1)
    })
  })
})

describe('a fatal error during SIGINT cleanup', () => {
  it('keeps the SIGINT ending (report exitCode 130), is recorded in the report, and the cleanup in flight still completes', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_FATAL: '1',
        FIXTURE_SIGNALS: '{}',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last' },
          { name: 'exporter', kind: 'fatal', ms: 300 },
        ]),
      })
      await fixture.ready
      fixture.child.kill('SIGINT')
      expect(await fixture.exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(await fixture.lines()).toEqual([
        'exporter:start',
        'exporter:done',
        'transcript:start',
        'transcript:done',
      ])
      const json = await fixture.report()
      expect(json.reason).toEqual({ type: 'signal', signal: 'SIGINT' })
      expect(json.exitCode).toBe(130)
      expect(json.laterReasons).toMatchObject([{ type: 'fatal', origin: 'uncaughtException' }])
      expect(fixture.stderr()).toContain('uncaughtException: Error: late boom')
    })
  })
})

describe('without installFatalHandlers()', () => {
  it("an uncaught exception keeps Node's default: exit 1 at once, no cleanup", async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'throw',
        FIXTURE_KEEPALIVE: '1',
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'transcript', kind: 'ok' }]),
      })
      expect(await fixture.exit).toEqual({ code: 1, signal: null })
      expect(await fixture.lines()).toEqual([])
    })
  })
})

describe('in-process', () => {
  it('installs its two listeners only when asked, uses onFatal, and removes them on exit', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    expect(parts.process.counts()).toMatchObject({ uncaughtException: 0, unhandledRejection: 0 })
    const seen: unknown[] = []
    shutdown.installFatalHandlers({ onFatal: (error, origin) => seen.push([origin, error]) })
    expect(parts.process.counts()).toMatchObject({ uncaughtException: 1, unhandledRejection: 1 })
    const error = new Error('x')
    parts.process.emit('unhandledRejection', error, Promise.resolve())
    expect(seen).toEqual([['unhandledRejection', error]])
    await shutdown.gracefulExit()
    expect(parts.process.exits).toEqual([1])
    expect(parts.process.counts()).toMatchObject({ uncaughtException: 0, unhandledRejection: 0 })
  })

  it('the uninstaller removes both listeners; installing twice never doubles them', () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    shutdown.installFatalHandlers()
    const uninstall = shutdown.installFatalHandlers()
    expect(parts.process.counts()).toMatchObject({ uncaughtException: 1, unhandledRejection: 1 })
    uninstall()
    expect(parts.process.counts()).toMatchObject({ uncaughtException: 0, unhandledRejection: 0 })
  })
})
