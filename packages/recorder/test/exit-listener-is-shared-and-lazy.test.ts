import { expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

it('importing installs nothing; all recorders share one exit listener, removed when the last one closes', async () => {
  const result = await runFixture('listener-counts', [])
  expect(result.code).toBe(0)
  const { before, imported, open, closed } = JSON.parse(result.stdout) as Record<
    string,
    { exit: number; SIGINT: number }
  >
  expect(imported).toEqual(before)
  expect(open).toEqual({ exit: before!.exit + 1, SIGINT: before!.SIGINT })
  expect(closed).toEqual(before)
})
