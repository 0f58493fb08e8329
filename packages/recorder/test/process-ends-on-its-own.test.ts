import fs from 'node:fs'
import { expect, it, vi } from 'vitest'

import { finished, startFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// No timer, listener or handle of the recorder may keep the host process alive: not after close(), not for
// a recorder left open, not while a failure's retries are pending.
it.for(['closed', 'open', 'failing'] as const)(
  'a process that used a recorder (%s) ends by itself once its own code is done',
  async (how) => {
    const dir = await tempDir()
    const child = startFixture('ends-on-its-own', [dir, how])
    child.stdin?.end()
    // Only a guard so a regression fails instead of hanging the run; nothing is asserted about time.
    const guard = setTimeout(() => child.kill('SIGKILL'), CHILD_PROCESS_TEST_TIMEOUT_MS - 10_000)
    const result = await finished(child)
    clearTimeout(guard)
    expect(result.signal, result.stderr).toBeNull()
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('done\n')
    if (how !== 'failing') {
      expect(readTranscript(`${dir}/${how}.jsonl`)).toHaveLength(100)
      expect(fs.existsSync(`${dir}/.sessiontape/${how}.jsonl.lock`)).toBe(false)
    }
  },
)
