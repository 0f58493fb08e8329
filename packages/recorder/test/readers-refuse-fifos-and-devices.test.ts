import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

import { finished, killIfHung, startFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// A hang is the failure: the child is killed past this, before the test's own timeout, so the test says so.
const HARD_TIMEOUT_MS = CHILD_PROCESS_TEST_TIMEOUT_MS - 20_000

async function readEachWay(
  target: string,
): Promise<{ stdout: string; code: number | null; killed: boolean }> {
  const child = startFixture('read-a-file-that-is-not-regular', [target])
  const hang = killIfHung(child, HARD_TIMEOUT_MS)
  const result = await finished(child)
  hang.cancel()
  return { stdout: result.stdout, code: result.code, killed: hang.killed() }
}

describe('the readers refuse a FIFO or a device with ERR_NOT_A_FILE, and nothing blocks on it', () => {
  it('a FIFO with no writer: each reader is refused and the process ends', async () => {
    const fifo = path.join(await tempDir(), 'session.jsonl')
    execFileSync('mkfifo', [fifo])
    const result = await readEachWay(fifo)
    expect(result.killed).toBe(false)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      'readSession ERR_NOT_A_FILE\nstreamRecords ERR_NOT_A_FILE\ndetectFormat ERR_NOT_A_FILE\nreadSession gemini-json ERR_NOT_A_FILE\n',
    )
  })

  it('/dev/zero (a line that never ends): refused before a byte is read', async () => {
    const result = await readEachWay('/dev/zero')
    expect(result.killed).toBe(false)
    expect(result.stdout).toBe(
      'readSession ERR_NOT_A_FILE\nstreamRecords ERR_NOT_A_FILE\ndetectFormat ERR_NOT_A_FILE\nreadSession gemini-json ERR_NOT_A_FILE\n',
    )
  })

  it('a directory still fails with EISDIR, as reading one always did', async () => {
    const result = await readEachWay(await tempDir())
    expect(result.stdout).toBe(
      'readSession EISDIR\nstreamRecords EISDIR\ndetectFormat EISDIR\nreadSession gemini-json EISDIR\n',
    )
  })
})
