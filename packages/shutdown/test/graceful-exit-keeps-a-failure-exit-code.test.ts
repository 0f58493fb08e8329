// After `process.exitCode = 1`, `gracefulExit()` without a code used to exit 0; process.exit() and
// exit-hook exit 1. No code given now means `process.exitCode ?? 0`, for gracefulExit and for an EPIPE
// ending without a configured code.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('gracefulExit() without a code', () => {
  it('in a real process with process.exitCode = 1: exits 1 after the cleanups, and reports 1', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'exit',
        FIXTURE_EXIT_CODE: 'none',
        FIXTURE_PRESET_EXIT_CODE: '1',
        FIXTURE_CLEANUPS: JSON.stringify([{ name: 'transcript', kind: 'ok' }]),
      })
      expect(await fixture.exit).toEqual({ code: 1, signal: null })
      expect(await fixture.lines()).toEqual(['transcript:start', 'transcript:done'])
      const json = await fixture.report()
      expect(json.reason).toEqual({ type: 'exit', code: 1 })
      expect(json.exitCode).toBe(1)
    })
  })

  it.for([
    [undefined, 0],
    [null, 0],
    [2, 2],
    ['3', 3],
    [300, 44], // what a POSIX parent sees: 300 & 0xff
  ] as const)('with process.exitCode = %o exits %i', async ([preset, expected]) => {
    const parts = fakes()
    parts.process.exitCode = preset
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    const report = await shutdown.gracefulExit()
    expect(parts.process.exits).toEqual([expected])
    expect(report.exitCode).toBe(expected)
  })

  it('an explicit code still wins over process.exitCode', async () => {
    const parts = fakes()
    parts.process.exitCode = 1
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    await shutdown.gracefulExit(0)
    expect(parts.process.exits).toEqual([0])
  })
})

describe('an EPIPE ending without a configured exitCode', () => {
  it('keeps a failure the program recorded before the pipe broke', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.guardEpipe(parts.stdout)
    parts.process.exitCode = 2
    parts.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
    await shutdown.gracefulExit()
    expect(parts.process.exits).toEqual([2])
  })
})
