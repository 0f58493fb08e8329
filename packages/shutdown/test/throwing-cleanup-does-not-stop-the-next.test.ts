// One broken cleanup (a synchronous throw or a rejection) is reported as `failed` and the rest still run.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe.for(['throw', 'reject'] as const)('a cleanup that %ss', (kind) => {
  it('in a real process: the next cleanup still runs and the exit code is kept', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_EXIT_CODE: '0',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'next', kind: 'ok' },
          { name: 'broken', kind },
        ]),
      })
      expect(await fixture.exit).toEqual({ code: 0, signal: null })
      expect(await fixture.lines()).toEqual(['broken:start', 'next:start', 'next:done'])
      const json = await fixture.report()
      expect(json.cleanups).toMatchObject([
        {
          name: 'broken',
          status: 'failed',
          error: { message: `broken ${kind === 'throw' ? 'failed' : 'rejected'}` },
        },
        { name: 'next', status: 'ok' },
      ])
    })
  })
})

describe('in-process', () => {
  it('a synchronous throw from a non-async function is isolated too, with the thrown value in the report', async () => {
    const shutdown = createShutdown(fakes())
    const ran: string[] = []
    const thrown = new Error('sync boom')
    shutdown.registerCleanup(() => void ran.push('last'), { name: 'last' })
    shutdown.registerCleanup(
      () => {
        throw thrown
      },
      { name: 'thrower' },
    )
    shutdown.registerCleanup(() => Promise.reject(new Error('rejected')), { name: 'rejecter' })
    const report = await shutdown.runExitCleanup()
    expect(ran).toEqual(['last'])
    expect(report.cleanups.map((c) => [c.name, c.status])).toEqual([
      ['rejecter', 'failed'],
      ['thrower', 'failed'],
      ['last', 'ok'],
    ])
    expect(report.cleanups[1]?.error).toBe(thrown)
  })

  it('a failure does not change the exit code of a graceful exit', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.registerCleanup(() => {
      throw new Error('x')
    })
    const report = await shutdown.gracefulExit(0)
    expect(parts.process.exits).toEqual([0])
    expect(report.exitCode).toBe(0)
  })
})
