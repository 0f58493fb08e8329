import fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

import { createRecorder } from '../src/index.js'
import { runCli } from '../../cli/test/helpers/cli.js'
import { finished, startFixture, waitForOutput } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// lockStaleMs far beyond the test's own timeout: a resume that had to wait for the lock to go stale fails
// the test by timing out, so what is tested is that the next writer gets the session at once.
const NEVER_STALE_MS = 10 * CHILD_PROCESS_TEST_TIMEOUT_MS

async function resumeAfter(dir: string, sessionId: string): Promise<string[]> {
  const rec = createRecorder({ dir, sessionId, resume: true, lockStaleMs: NEVER_STALE_MS })
  await rec.ready()
  rec.record('resumed')
  await rec.close()
  return readTranscript(`${dir}/${sessionId}.jsonl`).map((r) => r.type as string)
}

describe('after any ending, the next resume on this host gets the session at once', () => {
  it.for(['close', 'process-exit', 'uncaught'] as const)(
    'the holder ends by %s: the lock is released by the holder itself',
    async (ending) => {
      const dir = await tempDir()
      const result = await finished(startFixture('end-session', [dir, 's', ending]))
      expect(result.code).toBe(ending === 'uncaught' ? 1 : 0)
      // Released in the exit path (not left to signal-exit, whose hook another copy of it can disable).
      expect(fs.existsSync(`${dir}/.sessiontape/s.jsonl.lock`)).toBe(false)
      expect(fs.existsSync(`${dir}/.sessiontape/s.jsonl.lock.owner`)).toBe(false)
      expect(await resumeAfter(dir, 's')).toEqual(['holder', 'holder', 'holder', 'holder', 'resumed'])
    },
  )

  it.for<NodeJS.Signals>(['SIGTERM', 'SIGKILL'])(
    'the holder is killed by %s: a lock left behind is taken over at once because its owner is provably dead',
    async (signal) => {
      const dir = await tempDir()
      const child = startFixture('end-session', [dir, 's', 'wait'])
      const done = finished(child)
      await waitForOutput(child, 'ready')
      child.kill(signal)
      expect((await done).signal).toBe(signal)
      // SIGKILL leaves the lock directory (SIGTERM may not: a signal-exit hook, if loaded, removes it).
      if (signal === 'SIGKILL') expect(fs.existsSync(`${dir}/.sessiontape/s.jsonl.lock`)).toBe(true)
      const types = await resumeAfter(dir, 's')
      expect(types.filter((type) => type === 'resumed')).toHaveLength(1)
      expect(types.slice(0, 3)).toEqual(['holder', 'holder', 'holder'])
    },
  )

  it.for(['mkdir', 'owner'] as const)(
    'the holder is killed right after its lock %s, before its owner is on record: the lock is still taken over at once',
    async (at) => {
      const dir = await tempDir()
      const result = await finished(startFixture('die-while-taking-the-lock', [dir, at]))
      expect(result.signal).toBe('SIGKILL')
      // The lock directory is left behind with no (or an empty) owner file: only the intent proves its maker dead.
      const rec = createRecorder({ dir, sessionId: 's', resume: true, lockStaleMs: NEVER_STALE_MS })
      await rec.ready()
      rec.record('resumed')
      await rec.close()
      expect(readTranscript(`${dir}/s.jsonl`).map((r) => r.type)).toEqual(['resumed'])
    },
  )

  it('`sessiontape repair` follows the same rule: a SIGKILLed holder does not make it wait', async () => {
    const dir = await tempDir()
    const child = startFixture('end-session', [dir, 's', 'wait'])
    const done = finished(child)
    await waitForOutput(child, 'ready')
    child.kill('SIGKILL')
    await done
    fs.appendFileSync(`${dir}/s.jsonl`, '{"uuid":"torn","par')
    // proper-lockfile alone refuses a lock refreshed less than its stale bound ago (ELOCKED, "in use").
    const result = await runCli('repair', `${dir}/s.jsonl`)
    expect(result.stderr).not.toMatch(/locked|in use/i)
    expect(result.code).toBe(0)
  })

  it('the lock directory is 0700 even under umask 0', async () => {
    const dir = await tempDir()
    const child = startFixture('end-session', [dir, 's', 'wait', '0'])
    const done = finished(child)
    await waitForOutput(child, 'ready')
    expect((fs.statSync(`${dir}/.sessiontape/s.jsonl.lock`).mode & 0o777).toString(8)).toBe('700')
    child.kill('SIGKILL')
    await done
  })
})
