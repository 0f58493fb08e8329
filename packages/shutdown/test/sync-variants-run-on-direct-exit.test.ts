// When third-party code calls process.exit() directly, the async cleanups cannot run, but their
// synchronous `sync` variants still do, on 'exit'. A cleanup that completed does not run its sync variant.
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnAgent, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

describe('a direct process.exit(3)', () => {
  it('runs the sync variants (phase order, last-registered first) and keeps exit code 3', async () => {
    await withTempDir(async (dir) => {
      const fixture = spawnAgent(dir, {
        FIXTURE_ACTION: 'process-exit',
        FIXTURE_CLEANUPS: JSON.stringify([
          { name: 'transcript', kind: 'ok', phase: 'last', sync: true },
          { name: 'lockfile', kind: 'ok', sync: true },
          { name: 'no-sync', kind: 'ok' },
        ]),
      })
      expect(await fixture.exit).toEqual({ code: 3, signal: null })
      expect(await fixture.lines()).toEqual(['lockfile:sync', 'transcript:sync'])
    })
  })
})

describe('in-process', () => {
  it("installs the 'exit' listener only while a sync variant is registered", () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    const offPlain = shutdown.registerCleanup(() => {})
    expect(parts.process.listenerCount('exit')).toBe(0)
    const offA = shutdown.registerCleanup(() => {}, { sync: () => {} })
    const offB = shutdown.registerCleanup(() => {}, { sync: () => {} })
    expect(parts.process.listenerCount('exit')).toBe(1)
    offA()
    expect(parts.process.listenerCount('exit')).toBe(1)
    offB()
    offPlain()
    expect(parts.process.listenerCount('exit')).toBe(0)
  })

  it('after a graceful exit, only cleanups that did not complete run their sync variant; a throwing one does not stop the rest', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    const ran: string[] = []
    shutdown.registerCleanup(() => {}, { name: 'done', sync: () => void ran.push('done:sync') })
    shutdown.registerCleanup(() => new Promise(() => {}), {
      name: 'hung',
      timeoutMs: 20,
      sync: () => void ran.push('hung:sync'),
    })
    shutdown.registerCleanup(() => new Promise(() => {}), {
      name: 'broken',
      timeoutMs: 20,
      sync: () => {
        throw new Error('sync broke')
      },
    })
    await shutdown.gracefulExit(0)
    expect(ran).toEqual(['hung:sync'])
    expect(parts.stderr.text).toContain('sync cleanup "broken" threw')
  })
})
