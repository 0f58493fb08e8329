import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

import { createRecorder, type Recorder } from '../src/index.js'
import { finished, killIfHung, startFixture, waitForOutput } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

// A hang is a failure too: the holder is killed past this (counted from its start, which takes seconds on a
// loaded machine; before the test's own timeout, so the test says so).
const HARD_TIMEOUT_MS = CHILD_PROCESS_TEST_TIMEOUT_MS - 20_000
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
/** The holder's (fixtures/lock-lost-writer.ts) and the other writer's lockStaleMs. */
const LOCK_STALE_MS = 2000

function records(filePath: string): Array<{ uuid: string; parentUuid: string | null; type: string }> {
  return fs
    .readFileSync(filePath, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { uuid: string; parentUuid: string | null; type: string })
}

/** Resumes the session in this process (another process than the holder) and writes three records. */
async function takeOverAndWrite(dir: string, sessionId: string, until: number): Promise<Recorder> {
  for (;;) {
    const other = createRecorder({
      dir,
      sessionId,
      resume: true,
      lockStaleMs: LOCK_STALE_MS,
      onError: () => {},
    })
    try {
      await other.ready()
      for (let i = 0; i < 3; i++) other.record('other', { i })
      await other.flush()
      return other
    } catch (error) {
      await other.close().catch(() => {})
      if (Date.now() > until) throw error
      await sleep(50)
    }
  }
}

/**
 * Starts the holder, lets `lose` take its lock away, has another writer resume the session and write three records,
 * then waits until the holder has tried 20 records after that. `freeze`: the holder is paused and stopped (SIGSTOP)
 * from before `lose` until the other writer's records are on disk, so the order of the two writers is forced, not raced.
 */
async function scenario(
  lose: (dir: string, holder: ReturnType<typeof startFixture>) => Promise<void>,
  { freeze = false }: { freeze?: boolean } = {},
) {
  const dir = await tempDir()
  const sessionId = 'contested'
  const holder = startFixture('lock-lost-writer', [dir, sessionId])
  const done = finished(holder)
  const hang = killIfHung(holder, HARD_TIMEOUT_MS)
  await waitForOutput(holder, 'ready')
  // Ended (or killed by the hard timeout) without saying so: the assertions on its codes tell why.
  const wroteOn = waitForOutput(holder, 'wrote on').catch(() => '')
  let other: Recorder
  let result: Awaited<typeof done>
  try {
    if (freeze) {
      // Paused first, so no write call is in flight when it is stopped (a write already handed to the thread pool
      // would land whenever the process runs again, which no lock can prevent); then stopped, heartbeat included.
      holder.stdin!.write('pause\n')
      await waitForOutput(holder, 'paused')
      holder.kill('SIGSTOP')
    }
    const frozenAt = Date.now()
    await lose(dir, holder)
    other = await takeOverAndWrite(dir, sessionId, Date.now() + 10_000)
    if (freeze) {
      // Frozen for at least lockStaleMs: a write is issued only while the lock is provably fresh (refreshed
      // < ¾ lockStaleMs ago), so once thawed the holder must ask its heartbeat before writing. A holder that runs
      // on while its lock directory is removed by hand is the documented window (README guarantee 10): without
      // pause and freeze, 1 of 10 runs wrote once after the other writer; with a freeze alone, also 1 of 10.
      await sleep(Math.max(0, LOCK_STALE_MS + 200 - (Date.now() - frozenAt)))
      holder.kill('SIGCONT')
      holder.stdin!.write('resume\n')
    }
    // Counted from here: tries the holder made before the other writer's records prove nothing about after.
    holder.stdin!.write('other\n')
    // The holder notices (its heartbeat runs every lockStaleMs / 2) and tries writing on: it says so. An event,
    // not a clock: a fixed 3 s wait was both slow and, on a loaded machine, possibly too short.
    await wroteOn
    holder.stdin!.write('stop\n')
    result = await done
  } finally {
    // A failed step must not leave the holder behind: it records every 5 ms for ever, outliving the test run.
    hang.cancel()
    if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL')
  }
  await other.close()
  const all = records(path.join(dir, `${sessionId}.jsonl`))
  const firstOther = all.findIndex((record) => record.type === 'other')
  return {
    killed: hang.killed(),
    all,
    firstOther,
    codes: (JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { codes: string[] }).codes,
  }
}

describe('a lost lock is final whenever someone else wrote meanwhile, whichever order the events arrive in', () => {
  // The holder is frozen while its lock directory is removed and the other writer resumes and writes: without the
  // freeze, the holder's heartbeat could take the lock again first (the other writer then finds it locked, as it
  // should — failed 1 of 1 sweep runs at load ~25), or its write could race the other writer's append. That
  // concurrent case is the documented window of a lock removed by hand (noticed only at the next heartbeat,
  // README guarantee 10); what is guaranteed, and asserted here, is that once someone else wrote, it never writes.
  it('the lock directory removed, another process resumes and writes: the first writer stops for good, nothing of it after their records', async () => {
    const { killed, all, firstOther, codes } = await scenario(
      (dir) => {
        fs.rmSync(path.join(dir, '.sessiontape', 'contested.jsonl.lock'), { recursive: true, force: true })
        fs.rmSync(path.join(dir, '.sessiontape', 'contested.jsonl.lock.owner'), { force: true })
        return Promise.resolve()
      },
      { freeze: true },
    )
    expect(killed).toBe(false)
    expect(firstOther).toBeGreaterThan(0)
    expect(all.slice(firstOther).map((record) => record.type)).toEqual(['other', 'other', 'other'])
    expect(
      codes.some((code) => code === 'ERR_RECORDER_LOCK_COMPROMISED' || code === 'ERR_SESSION_LOCKED'),
    ).toBe(true)
  })

  // Once failed 2 of 5 runs at load ~5 (a fork: `[other, other, other, holder]`): the unblocked holder's check
  // before a write saw the file as it left it, and the other writer's append landed between that read and the
  // write. A holder now writes only while its lock is provably fresh, so after the block it waits for its
  // heartbeat, which finds the lock taken (see the recorder README, guarantee 10).
  it('a holder whose event loop is blocked 4 s has its lock taken over as stale: after the other writer, it never writes again', async () => {
    const { killed, all, firstOther, codes } = await scenario(async (_dir, holder) => {
      holder.stdin!.write('block 4000\n')
      // The lock goes stale after lockStaleMs (2 s) without a heartbeat.
      await sleep(2300)
    })
    expect(killed).toBe(false)
    expect(firstOther).toBeGreaterThan(0)
    expect(all.slice(firstOther).map((record) => record.type)).toEqual(['other', 'other', 'other'])
    expect(
      codes.some((code) => code === 'ERR_RECORDER_LOCK_COMPROMISED' || code === 'ERR_SESSION_LOCKED'),
    ).toBe(true)
  })
})
