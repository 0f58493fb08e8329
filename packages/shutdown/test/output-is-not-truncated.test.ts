// Writes to a pipe are asynchronous on POSIX and process.exit() drops what is still queued. gracefulExit
// drains stdout before exiting — bounded, so a reader that never reads cannot hold the exit.
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it, vi } from 'vitest'
import { spawnFixture } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

async function readAfterPause(env: Record<string, string>, pauseMs: number) {
  const fixture = spawnFixture('many-lines.ts', { env, pauseStdout: true })
  // Nobody reads for a while: the pipe fills and the child's writes queue up behind it.
  await sleep(pauseMs)
  fixture.resumeStdout()
  const exit = await fixture.exit
  return { exit, lines: fixture.stdout().split('\n').filter(Boolean) }
}

describe.skipIf(process.platform === 'win32')('10 000 lines written to a paused reader', () => {
  it('all arrive before the exit', async () => {
    const { exit, lines } = await readAfterPause({}, 300)
    expect(exit).toEqual({ code: 0, signal: null })
    expect(lines).toHaveLength(10_000)
    expect(lines.at(-1)).toMatch(/^9999 x+$/)
  })

  it('control: process.exit(0) without the drain loses lines (the harness does detect truncation)', async () => {
    const { exit, lines } = await readAfterPause({ FIXTURE_MODE: 'naive' }, 300)
    expect(exit).toEqual({ code: 0, signal: null })
    expect(lines.length).toBeLessThan(10_000)
  })
})

describe('a reader that never reads', () => {
  it('cannot hold the exit: the drain gives up within the overall bound', async () => {
    const boundMs = 1500
    const fixture = spawnFixture('many-lines.ts', {
      env: { FIXTURE_TIMEOUT_MS: String(boundMs) },
      pauseStdout: true,
    })
    await fixture.ready
    const started = Date.now()
    // 'exit', not 'close': the unread pipe stays open on our side after the child is gone.
    const [code, signal] = (await once(fixture.child, 'exit')) as [number | null, string | null]
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(boundMs + 2000)
  })
})
