import { expect, it } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'

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
