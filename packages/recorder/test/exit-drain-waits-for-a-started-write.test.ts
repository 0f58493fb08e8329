import { expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// A write that has started (part of it is already in the file) is being finished by the kernel: if the exit
// drain gave up on it after its 250 ms wait and wrote the rest itself, that rest would land twice — a torn
// fragment line in the middle of the transcript. The drain waits for a started write to finish.
it('exit while a write is half done: every record exactly once, every line whole', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-during-partial-write', [dir])
  expect(result.code, result.stderr).toBe(0)
  const accepted = Number(result.stdout.trim())
  expect(accepted).toBe(2050)
  const records = readTranscript(`${dir}/partial.jsonl`)
  expect(records.map((r) => r.i)).toEqual([...Array(accepted).keys()])
})
