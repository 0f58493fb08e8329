// handleExit({ recorders }) is the whole exit wiring of an agent in one call: signals, fatal errors, a
// reader that goes away and a direct process.exit() all still flush the recorder, and the undo it returns
// removes everything it installed.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createShutdown, handleExit } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import { spawnFixture, withTempDir } from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

async function marks(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text.split('\n').filter((line) => line !== '')
}

function report(stderr: string): { exitCode: number; cleanups: [string, string][] } {
  const line = stderr.split('\n').find((text) => text.startsWith('report '))
  if (line === undefined) throw new Error(`no report on stderr:\n${stderr}`)
  return JSON.parse(line.slice('report '.length)) as { exitCode: number; cleanups: [string, string][] }
}

describe('handleExit({ recorders: [recorder] })', () => {
  it.for(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s: the recorder is closed, then the process dies by the signal',
    async (signal) => {
      await withTempDir(async (dir) => {
        const marker = join(dir, 'marker')
        const fixture = spawnFixture('handle-exit.ts', {
          env: { FIXTURE_MARKER: marker, FIXTURE_MODE: 'wait' },
        })
        await fixture.ready
        fixture.child.kill(signal)
        expect(await fixture.exit).toEqual({ code: null, signal })
        expect(await marks(marker)).toEqual(['closed'])
        expect(report(fixture.stderr()).cleanups).toEqual([['transcript', 'ok']])
      })
    },
  )

  it('an uncaught exception: printed, the recorder closed, exit code 1', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const fixture = spawnFixture('handle-exit.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_MODE: 'fatal' },
      })
      expect(await fixture.exit).toEqual({ code: 1, signal: null })
      expect(fixture.stderr()).toContain('boom')
      expect(await marks(marker)).toEqual(['closed'])
    })
  })

  it('the stdout reader goes away (| head -1): exit 0, the recorder closed', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const fixture = spawnFixture('handle-exit.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_MODE: 'lines' },
      })
      fixture.child.stdout?.once('data', () => fixture.child.stdout?.destroy())
      expect(await fixture.exit).toEqual({ code: 0, signal: null })
      expect(await marks(marker)).toEqual(['closed'])
    })
  })

  it('a direct process.exit(): the synchronous flush runs', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const fixture = spawnFixture('handle-exit.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_MODE: 'process-exit' },
      })
      expect((await fixture.exit).code).toBe(3)
      expect(await marks(marker)).toEqual(['flushSync'])
    })
  })

  it('returns its own undo: every listener it added is gone, the cleanup unregistered', async () => {
    const { process, stdout, stderr } = fakes()
    const shutdown = createShutdown({ process, stdout, stderr })
    const before = process.counts()
    const closed: string[] = []
    const undo = handleExit({
      shutdown,
      epipe: [stdout, stderr],
      recorders: [{ close: () => Promise.resolve(closed.push('closed')), flushSync: () => undefined }],
    })
    expect(process.counts()).not.toEqual(before)
    expect(stdout.listenerCount('error')).toBe(1)
    undo()
    undo()
    expect(process.counts()).toEqual(before)
    expect(stdout.listenerCount('error')).toBe(0)
    const result = await shutdown.runExitCleanup()
    expect(result.cleanups).toEqual([])
    expect(closed).toEqual([])
  })

  it('refuses what it cannot use, at the call', () => {
    expect(() => handleExit({ recorders: [{}] as never })).toThrow(
      'Expected `recorders[0]` to be an object with close() and flushSync()',
    )
    expect(() => handleExit({ delay: 500 } as never)).toThrow('Unknown option `delay`')
  })
})
