// Importing the package installs no listener; the module-level functions create the default instance and
// its listeners lazily, on first use, and the returned functions take them away again.
import { describe, expect, it, vi } from 'vitest'
import { spawnFixture } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('importing @sessiontape/shutdown', () => {
  it('adds no process or stdio listener until first use, and undoing use removes them', async () => {
    const fixture = spawnFixture('import-only.ts')
    expect(await fixture.exit).toEqual({ code: 0, signal: null })
    const { before, afterImport, afterPlainRegister, afterUse, afterUndo } = JSON.parse(
      fixture.stdout(),
    ) as Record<string, Record<string, number>>
    expect(afterImport).toEqual(before)
    expect(afterPlainRegister).toEqual(before)
    expect(afterUse).toEqual({
      ...before,
      SIGINT: (before?.SIGINT ?? 0) + 1,
      SIGTERM: (before?.SIGTERM ?? 0) + 1,
      SIGHUP: (before?.SIGHUP ?? 0) + 1,
      stdoutError: (before?.stdoutError ?? 0) + 1,
    })
    expect(afterUndo).toEqual(before)
  })
})
