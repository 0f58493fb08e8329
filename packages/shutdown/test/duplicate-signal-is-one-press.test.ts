// Under `npm run`/`pnpm run` one Ctrl-C reaches the agent twice within milliseconds. That must count as
// one press; a genuine second press (a second later) forces the exit, ending by the first signal.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'

interface Scenario {
  readonly signals: Record<string, unknown>
  readonly gapsMs: readonly number[]
  readonly cleanupMs: number
}

async function run({ signals, gapsMs, cleanupMs }: Scenario, dir: string) {
  const fixture = spawnAgent(dir, {
    FIXTURE_SIGNALS: JSON.stringify(signals),
    FIXTURE_OPTIONS: JSON.stringify({ timeoutMs: 10_000, cleanupTimeoutMs: 10_000 }),
    FIXTURE_CLEANUPS: JSON.stringify([{ name: 'flush', kind: 'slow', ms: cleanupMs, sync: true }]),
  })
  await fixture.ready
  fixture.child.kill('SIGINT')
  for (const gap of gapsMs) {
    // Separate deliveries (not coalesced by the kernel into one pending signal).
    await sleep(gap)
    fixture.child.kill('SIGINT')
  }
  return { exit: await fixture.exit, lines: await fixture.lines(), report: await fixture.report() }
}

describe('a duplicate SIGINT within the window', () => {
  it('is ignored: the cleanup finishes and the exit is not forced', async () => {
    await withTempDir(async (dir) => {
      const { exit, lines, report } = await run({ signals: {}, gapsMs: [10, 10], cleanupMs: 1500 }, dir)
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(lines).toEqual(['flush:start', 'flush:done'])
      expect(report.forced).toBe(false)
      expect(report.laterReasons).toEqual([])
      expect(report.cleanups.map((c) => c.status)).toEqual(['ok'])
    })
  })

  it('would force the exit if de-duplication were off (the scenario really delivers two signals)', async () => {
    await withTempDir(async (dir) => {
      const { exit, lines, report } = await run(
        { signals: { duplicateWindowMs: 0 }, gapsMs: [30], cleanupMs: 1500 },
        dir,
      )
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(lines).toEqual(['flush:start', 'flush:sync'])
      expect(report.forced).toBe(true)
    })
  })
})

describe('a second SIGINT one second later', () => {
  it('forces the exit (by SIGINT, report exitCode 130); the hung cleanup is reported and its sync variant still runs', async () => {
    await withTempDir(async (dir) => {
      const started = Date.now()
      const { exit, lines, report } = await run({ signals: {}, gapsMs: [1000], cleanupMs: 8000 }, dir)
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      // Loose bound: far below the 8 s the cleanup would have taken.
      expect(Date.now() - started).toBeLessThan(1000 + 4000)
      expect(lines).toEqual(['flush:start', 'flush:sync'])
      expect(report.forced).toBe(true)
      expect(report.laterReasons).toEqual([{ type: 'signal', signal: 'SIGINT' }])
      expect(report.cleanups).toMatchObject([
        { name: 'flush', status: 'timed-out', error: { code: 'ERR_SHUTDOWN_FORCED' } },
      ])
    })
  })

  it("with secondSignal: 'ignore' is only recorded; the cleanup finishes", async () => {
    await withTempDir(async (dir) => {
      const { exit, lines, report } = await run(
        { signals: { secondSignal: 'ignore' }, gapsMs: [500], cleanupMs: 1200 },
        dir,
      )
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(lines).toEqual(['flush:start', 'flush:done'])
      expect(report.forced).toBe(false)
      expect(report.laterReasons).toEqual([{ type: 'signal', signal: 'SIGINT' }])
    })
  })
})
