import { expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

it('an earlier exit listener that calls process.exit() does not skip the exit drain: every record is on disk', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-listener-calls-process-exit', [dir])
  expect(result.code).toBe(3)
  expect(result.stdout).toBe('1000\n')
  const records = readTranscript(`${dir}/hooked.jsonl`)
  expect(records).toHaveLength(1000)
  expect(records.map((r) => r.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i))
})
