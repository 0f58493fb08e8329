import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

import { finished, killIfHung, startFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// A hang is the failure this guards against: the child is killed past this (before the test's own timeout,
// so the test says so); a FIFO's open blocks forever, so the bound needs no relation to the machine's speed.
const HARD_TIMEOUT_MS = CHILD_PROCESS_TEST_TIMEOUT_MS - 20_000

async function run(
  how: string,
): Promise<{ stdout: string; stderr: string; code: number | null; killed: boolean; dir: string }> {
  const dir = await tempDir()
  const child = startFixture('fifo-at-the-path', [dir, how])
  const hang = killIfHung(child, HARD_TIMEOUT_MS)
  const result = await finished(child)
  hang.cancel()
  return { ...result, killed: hang.killed(), dir }
}

describe('a FIFO at the transcript path is refused (ERR_NOT_A_FILE), never written, and nothing blocks on it', () => {
  it('planted before createRecorder: flush() rejects, process.exit() ends the process, the records are reported lost', async () => {
    const result = await run('planted')
    expect(result.killed).toBe(false)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('flush rejected ERR_NOT_A_FILE')
    expect(result.stderr).toMatch(/ERR_RECORDER_EXIT_UNWRITTEN.*200 record\(s\) could not be written/)
    expect((await fs.lstat(path.join(result.dir, 'fifo.jsonl'))).isFIFO()).toBe(true)
  })

  it('swapped in while the transcript is open: flush() rejects, process.exit() ends the process', async () => {
    const result = await run('swapped')
    expect(result.killed).toBe(false)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('flush rejected ERR_NOT_A_FILE')
    expect(result.stdout).toMatch(/errors .*ERR_TRANSCRIPT_REPLACED/)
  })

  it('there when the process exits right after record(): the exit drain opens it without blocking and refuses it', async () => {
    const result = await run('exit')
    expect(result.killed).toBe(false)
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/ERR_RECORDER_EXIT_UNWRITTEN/)
  })

  it('createRecorder({ resume: true }) on a FIFO fails at once with ERR_NOT_A_FILE', async () => {
    const result = await run('resume')
    expect(result.killed).toBe(false)
    expect(result.stdout.trim()).toBe('threw ERR_NOT_A_FILE')
  })
})
