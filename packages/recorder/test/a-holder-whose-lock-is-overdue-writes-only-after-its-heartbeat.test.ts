import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

import { createRecorder, type Recorder } from '../src/index.js'
import { finished, killIfHung, startFixture, waitForOutput } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

const HARD_TIMEOUT_MS = CHILD_PROCESS_TEST_TIMEOUT_MS - 20_000
const LOCK_CODES = ['ERR_RECORDER_LOCK_COMPROMISED', 'ERR_SESSION_LOCKED', 'ERR_RECORDER_LOCK_FAILED']
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function types(filePath: string): string[] {
  return fs
    .readFileSync(filePath, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => (JSON.parse(line) as { type: string }).type)
}

/** Resumes the session here once the holder's lock is stale (about 2 s without a heartbeat). */
async function takeOver(dir: string, sessionId: string): Promise<Recorder> {
  const until = Date.now() + 30_000
  for (;;) {
    const other = createRecorder({ dir, sessionId, resume: true, lockStaleMs: 2000, onError: () => {} })
    try {
      await other.ready()
      return other
    } catch (error) {
      await other.close().catch(() => {})
      if (Date.now() > until) throw error
      await sleep(50)
    }
  }
}

// The order is fixed by the test, not by a clock: the holder's event loop is blocked (its heartbeat overdue)
// until another process has taken its lock over as stale; then, before any of its timers can run, it writes.
// Its file is exactly as it left it — nobody has written yet — so no check of the file can tell; only the age
// of its lock can. Before the fix the holder wrote, and the other writer's records came after: a fork.
describe.for(['sync', 'async'] as const)(
  'a holder whose lock is overdue for its refresh writes nothing until its heartbeat confirms the lock (%s flush)',
  (mode) => {
    it('taken over meanwhile: its flush fails with a lock error, and nothing of it is in the file', async () => {
      const dir = await tempDir()
      const sessionId = 'overdue'
      const filePath = path.join(dir, `${sessionId}.jsonl`)
      const marker = path.join(dir, 'taken-over')
      const holder = startFixture('overdue-lock-holder', [dir, sessionId])
      const done = finished(holder)
      const hang = killIfHung(holder, HARD_TIMEOUT_MS)
      await waitForOutput(holder, 'ready')
      const attempted = waitForOutput(holder, '"flushed"')
      holder.stdin!.write(`block-until ${marker} ${mode}\n`)
      const other = await takeOver(dir, sessionId)
      fs.writeFileSync(marker, '')
      const said = await attempted
      other.record('other', {})
      await other.flush()
      await other.close()
      holder.stdin!.write('stop\n')
      const result = await done
      hang.cancel()

      expect(hang.killed()).toBe(false)
      const lines = said.trim().split('\n')
      const attempt = JSON.parse(lines.find((line) => line.includes('"flushed"'))!) as {
        flushed: boolean
        code?: string
      }
      expect(attempt.flushed).toBe(false)
      expect(LOCK_CODES).toContain(attempt.code)
      expect(types(filePath)).toEqual(['holder', 'other'])
      const codes = (JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { codes: string[] }).codes
      expect(codes.some((code) => LOCK_CODES.includes(code))).toBe(true)
    })
  },
)
