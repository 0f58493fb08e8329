import { expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

it('a slow disk at exit: the drain stops at exitDrainMs and says on stderr how many records it could not write', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-drain-bounds', [dir, 'slow'])
  expect(result.code).toBe(0)
  const match =
    /ERR_RECORDER_EXIT_UNWRITTEN\]: .*the process is exiting and (\d+) record\(s\) could not be written within exitDrainMs \(300 ms\)/.exec(
      result.stderr,
    )
  expect(match).not.toBeNull()
  const unwritten = Number(match![1])
  const written = readTranscript(`${dir}/slow.jsonl`).length
  // What is on disk and what was reported lost add up to what was accepted: nothing vanished unreported.
  expect(unwritten).toBeGreaterThan(0)
  expect(written + unwritten).toBe(200)
})

it('a full disk at exit: the loss is reported with its count even after the episode was already warned about', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-drain-bounds', [dir, 'full'])
  expect(result.code).toBe(0)
  expect(result.stderr).toMatch(/\[ERR_RECORDER_WRITE_FAILED\]/)
  expect(result.stderr).toMatch(
    /ERR_RECORDER_EXIT_UNWRITTEN\]: .*the process is exiting and 200 record\(s\) could not be written/,
  )
})

it('an async onError whose promise rejects never crashes the host', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-drain-bounds', [dir, 'reject'])
  expect(result.stdout).toBe('exiting\n')
  expect(result.code).toBe(0)
  expect(result.stderr).not.toMatch(/Unhandled|the handler itself failed/)
})
