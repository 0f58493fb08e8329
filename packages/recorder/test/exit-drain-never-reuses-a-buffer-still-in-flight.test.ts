import { expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// The buffers of a big record's slices are reused from one slice to the next. A write the threadpool still
// runs when the exit drain takes over may read its buffer after the drain has written the slices behind it:
// that buffer must still hold the bytes it was handed (the same bytes landing twice is reported as a
// duplicate by readers; other bytes would be a record nobody wrote).
it('exit with a slice in flight: its buffer is left as it was, the record is written whole once', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-while-a-slice-is-in-flight', [dir])
  expect(result.code, result.stderr).toBe(0)
  expect(result.stdout.trim()).toBe('unchanged')
  const records = readTranscript(`${dir}/slices.jsonl`)
  expect(records).toHaveLength(1)
  expect(records[0]).toMatchObject({
    type: 'tool_result',
    text: 'a'.repeat(3_000_000),
    tail: 'b'.repeat(3_000_000),
  })
})
