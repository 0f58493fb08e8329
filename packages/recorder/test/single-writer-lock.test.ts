import fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

import { createRecorder, SessionLockedError, type RecorderError } from '../src/index.js'
import { finished, startFixture, waitForOutput } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('single writer per session: a second writer gets SessionLockedError and writes nothing', () => {
  it('another process holds the session: ready(), flush() and onError all report ERR_SESSION_LOCKED; its file is untouched', async () => {
    const dir = await tempDir()
    const holder = startFixture('hold-session', [dir, 'shared'])
    const done = finished(holder)
    await waitForOutput(holder, 'ready')

    const errors: RecorderError[] = []
    const second = createRecorder({ dir, sessionId: 'shared', onError: (error) => errors.push(error) })
    second.record('intruder', { n: 1 })
    second.record('intruder', { n: 2 })
    const ready = await second.ready().catch((error: unknown) => error)
    expect(ready).toBeInstanceOf(SessionLockedError)
    expect(ready).toMatchObject({ code: 'ERR_SESSION_LOCKED', sessionId: 'shared' })
    await expect(second.flush()).rejects.toMatchObject({ code: 'ERR_SESSION_LOCKED', unwrittenRecords: 2 })
    expect(errors.map((error) => error.code)).toEqual(['ERR_SESSION_LOCKED'])
    expect((ready as Error).message).toMatch(/locked by another writer/)
    await expect(second.close()).rejects.toBeInstanceOf(SessionLockedError)

    holder.stdin!.write('stop\n')
    const result = await done
    expect(result.code).toBe(0)
    const records = readTranscript(`${dir}/shared.jsonl`)
    expect(records.map((r) => r.type)).toEqual(['holder', 'holder', 'holder', 'holder'])
    expect(fs.existsSync(`${dir}/.sessiontape/shared.jsonl.lock`)).toBe(false)
  })

  it('in the same process the second recorder is refused too, and takes over once the first closed', async () => {
    const dir = await tempDir()
    const first = createRecorder({ dir, sessionId: 'one' })
    first.record('first')
    const second = createRecorder({ dir, sessionId: 'one', onError: () => {} })
    second.record('second')
    await expect(second.ready()).rejects.toMatchObject({ code: 'ERR_SESSION_LOCKED' })
    await first.close()
    await second.close().catch(() => {})
    const third = createRecorder({ dir, sessionId: 'one', resume: true })
    third.record('third')
    await third.close()
    expect(readTranscript(`${dir}/one.jsonl`).map((r) => r.type)).toEqual(['first', 'third'])
  })

  it('lock: false opts out (two writers may then interleave whole records)', async () => {
    const dir = await tempDir()
    const a = createRecorder({ dir, sessionId: 'open', lock: false })
    const b = createRecorder({ dir, sessionId: 'open', lock: false })
    a.record('a')
    b.record('b')
    await Promise.all([a.close(), b.close()])
    expect(
      readTranscript(`${dir}/open.jsonl`)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['a', 'b'])
    expect(fs.existsSync(`${dir}/.sessiontape/open.jsonl.lock`)).toBe(false)
  })

  it('a holder killed with SIGKILL is taken over at once: its owner file names a pid that is gone', async () => {
    const dir = await tempDir()
    const holder = startFixture('hold-session', [dir, 'crashed', '60000'])
    const done = finished(holder)
    await waitForOutput(holder, 'ready')
    expect(JSON.parse(fs.readFileSync(`${dir}/.sessiontape/crashed.jsonl.lock.owner`, 'utf8'))).toMatchObject(
      {
        pid: holder.pid,
      },
    )
    holder.kill('SIGKILL')
    await done
    expect(fs.existsSync(`${dir}/.sessiontape/crashed.jsonl.lock`)).toBe(true)

    // A minute of lockStaleMs would make a resume wait a minute; the dead pid makes it wait for nothing.
    const resumed = createRecorder({ dir, sessionId: 'crashed', resume: true, lockStaleMs: 60_000 })
    await expect(resumed.ready()).resolves.toBeUndefined()
    resumed.record('after-crash')
    await resumed.close()
    const records = readTranscript(`${dir}/crashed.jsonl`)
    expect(records.map((r) => r.type)).toEqual(['holder', 'holder', 'holder', 'after-crash'])
    expect(records[3]!.parentUuid).toBe(records[2]!.uuid)
    expect(fs.existsSync(`${dir}/.sessiontape/crashed.jsonl.lock`), 'released on close').toBe(false)
    expect(fs.existsSync(`${dir}/.sessiontape/crashed.jsonl.lock.owner`), 'owner file removed on close').toBe(
      false,
    )
  })

  it('the owner file is on record when createRecorder returns and is never rewritten while records are written', async () => {
    // A rewrite (truncate, then write) while the recorder is already writing would leave a window in which
    // a SIGKILL leaves the file empty; a resume would then wait lockStaleMs instead of taking over at once.
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'owned', lockStaleMs: 60_000 })
    const ownerPath = `${dir}/.sessiontape/owned.jsonl.lock.owner`
    const before = fs.statSync(ownerPath)
    expect(JSON.parse(fs.readFileSync(ownerPath, 'utf8'))).toMatchObject({ pid: process.pid })
    for (let i = 0; i < 50; i++) rec.record('event', { i })
    await rec.ready()
    await rec.flush()
    const after = fs.statSync(ownerPath)
    expect({ ino: after.ino, mtimeNs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeNs: before.mtimeMs })
    await rec.close()
  })

  it('a dead holder that left no owner file (killed before writing it) is taken over only after lockStaleMs', async () => {
    const dir = await tempDir()
    const holder = startFixture('hold-session', [dir, 'crashed', '2000'])
    const done = finished(holder)
    await waitForOutput(holder, 'ready')
    holder.kill('SIGKILL')
    await done
    fs.rmSync(`${dir}/.sessiontape/crashed.jsonl.lock.owner`)

    const early = createRecorder({
      dir,
      sessionId: 'crashed',
      resume: true,
      lockStaleMs: 2000,
      onError: () => {},
    })
    await expect(early.ready()).rejects.toMatchObject({ code: 'ERR_SESSION_LOCKED' })
    await early.close().catch(() => {})

    // proper-lockfile rounds the lock's mtime up to the next second, so staleness can take up to 1 s more.
    await new Promise((resolve) => setTimeout(resolve, 3300))
    const late = createRecorder({ dir, sessionId: 'crashed', resume: true, lockStaleMs: 2000 })
    await expect(late.ready()).resolves.toBeUndefined()
    late.record('after-crash')
    await late.close()
    const records = readTranscript(`${dir}/crashed.jsonl`)
    expect(records.map((r) => r.type)).toEqual(['holder', 'holder', 'holder', 'after-crash'])
  })

  it('an owner file left by a dead process never vouches for a newer lock held by a live one', async () => {
    const dir = await tempDir()
    const holder = startFixture('hold-session', [dir, 'shared', '60000'])
    const done = finished(holder)
    await waitForOutput(holder, 'ready')
    // A stale owner file naming a dead pid, as a crashed earlier holder would have left it.
    fs.writeFileSync(
      `${dir}/.sessiontape/shared.jsonl.lock.owner`,
      JSON.stringify({ pid: 2 ** 22 + 7, hostname: (await import('node:os')).hostname(), lockId: '1:1' }),
    )
    const second = createRecorder({ dir, sessionId: 'shared', lockStaleMs: 60_000, onError: () => {} })
    await expect(second.ready()).rejects.toBeInstanceOf(SessionLockedError)
    await second.close().catch(() => {})
    holder.stdin!.write('stop\n')
    expect((await done).code).toBe(0)
  })
})
