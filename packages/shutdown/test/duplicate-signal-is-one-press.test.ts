// Under `npm run`/`pnpm run` one Ctrl-C reaches the agent twice within milliseconds. That must count as
// one press; a genuine second press (a second later) forces the exit, ending by the first signal.
//
// Every step waits for an event, never for the machine to be fast: the second signal is sent only once the
// fixture has handled the first (its cleanup marked `flush:start`), so the two are separate deliveries even
// on a loaded machine (a signal sent before the first is handled would merge with it in the kernel), and a
// cleanup that must outlast the second signal never settles on its own (or settles on that signal).
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it, vi } from 'vitest'
import { spawnAgent, withTempDir, type RunningAgent } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

interface Scenario {
  readonly signals: Record<string, unknown>
  /** Pause before each further SIGINT, counted from when the first one was handled. */
  readonly gapsMs: readonly number[]
  readonly cleanup: Record<string, unknown>
}

/** Polls the marker file until the fixture wrote `line` (or exited: the test then fails on its assertions). */
async function markerLine(fixture: RunningAgent, line: string): Promise<void> {
  let exited = false
  void fixture.exit.then(() => (exited = true))
  while (!exited && !(await fixture.lines()).includes(line)) await sleep(20)
}

async function run({ signals, gapsMs, cleanup }: Scenario, dir: string) {
  const fixture = spawnAgent(dir, {
    FIXTURE_SIGNALS: JSON.stringify(signals),
    FIXTURE_OPTIONS: JSON.stringify({ timeoutMs: 10_000, cleanupTimeoutMs: 10_000 }),
    FIXTURE_CLEANUPS: JSON.stringify([{ name: 'flush', sync: true, ...cleanup }]),
  })
  await fixture.ready
  fixture.child.kill('SIGINT')
  await markerLine(fixture, 'flush:start')
  for (const gap of gapsMs) {
    await sleep(gap)
    fixture.child.kill('SIGINT')
  }
  return { exit: await fixture.exit, lines: await fixture.lines(), report: await fixture.report() }
}

describe('a duplicate SIGINT within the window', () => {
  it('is ignored: the cleanup finishes and the exit is not forced', async () => {
    await withTempDir(async (dir) => {
      // A window far wider than the default 200 ms: how far apart the fixture *handles* two signals sent
      // 10 ms apart depends on the machine's load, the rule under test does not.
      const { exit, lines, report } = await run(
        { signals: { duplicateWindowMs: 60_000 }, gapsMs: [10, 10], cleanup: { kind: 'slow', ms: 300 } },
        dir,
      )
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
        { signals: { duplicateWindowMs: 0 }, gapsMs: [10], cleanup: { kind: 'hang' } },
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
      // The cleanup never settles: ending before the 10 s deadline, forced, is the second signal's doing.
      const { exit, lines, report } = await run(
        { signals: {}, gapsMs: [1000], cleanup: { kind: 'hang' } },
        dir,
      )
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(lines).toEqual(['flush:start', 'flush:sync'])
      expect(report.forced).toBe(true)
      expect(report.deadlineExceeded).toBe(false)
      expect(report.laterReasons).toEqual([{ type: 'signal', signal: 'SIGINT' }])
      expect(report.cleanups).toMatchObject([
        { name: 'flush', status: 'timed-out', error: { code: 'ERR_SHUTDOWN_FORCED' } },
      ])
    })
  })

  it("with secondSignal: 'ignore' is only recorded; the cleanup finishes", async () => {
    await withTempDir(async (dir) => {
      // The cleanup settles on the second SIGINT itself, so it is still running when that signal arrives.
      const { exit, lines, report } = await run(
        { signals: { secondSignal: 'ignore' }, gapsMs: [500], cleanup: { kind: 'until-next-sigint' } },
        dir,
      )
      expect(exit).toEqual({ code: null, signal: 'SIGINT' })
      expect(lines).toEqual(['flush:start', 'flush:done'])
      expect(report.forced).toBe(false)
      expect(report.laterReasons).toEqual([{ type: 'signal', signal: 'SIGINT' }])
    })
  })
})
