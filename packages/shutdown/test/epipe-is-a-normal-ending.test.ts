// When the reader of stdout goes away (`agent | head -1`), the write fails with EPIPE. That is a normal
// ending: no crash, no process.exit() that skips cleanup; the transcript cleanup still completes and the
// exit code is 0 (or 141 when configured). Other stream errors stay with their owners.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from '../src/index.js'
import { fakes } from './helpers/fake-process.js'
import {
  fixtureArgs,
  packageDir,
  readLines,
  readReport,
  spawnFixture,
  withTempDir,
} from './helpers/spawn-fixture.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

function quote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`
}

describe.skipIf(process.platform === 'win32')('node fixture | head -1', () => {
  it('completes the async cleanup (marker file) and the writer itself exits 0', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const report = join(dir, 'report.json')
      const command = [process.execPath, ...fixtureArgs('epipe-writer.ts')].map(quote).join(' ')
      const child = spawn('bash', ['-c', `${command} | head -1; echo "PIPESTATUS=\${PIPESTATUS[0]}" >&2`], {
        cwd: packageDir,
        env: { ...process.env, FIXTURE_MARKER: marker, FIXTURE_REPORT: report },
      })
      let out = ''
      let err = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
      await new Promise((resolve) => child.once('close', resolve))
      expect(out).toBe('line 0\n')
      expect(err).toBe('PIPESTATUS=0\n')
      expect(await readLines(marker)).toEqual(['transcript:flushed'])
      const json = await readReport(report)
      expect(json.reason).toEqual({ type: 'epipe', stream: 'stdout' })
      expect(json.cleanups).toMatchObject([{ name: 'transcript', status: 'ok' }])
    })
  })
})

describe('a reader that closes its end after the first line', () => {
  it('with exitCode: 141 the writer exits 141 after its cleanup, without an error on stderr', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const fixture = spawnFixture('epipe-writer.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_EPIPE_CODE: '141' },
      })
      const stdout = fixture.child.stdout
      if (!stdout) throw new Error('no stdout pipe')
      stdout.once('data', () => stdout.destroy())
      expect(await fixture.exit).toEqual({ code: 141, signal: null })
      expect(await readLines(marker)).toEqual(['transcript:flushed'])
      expect(fixture.stderr()).toBe('')
    })
  })
})

describe('errors other than EPIPE', () => {
  it('are rethrown as Node would when nobody else listens (exit 1, error printed)', async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const fixture = spawnFixture('epipe-writer.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_MODE: 'other-error' },
      })
      expect(await fixture.exit).toEqual({ code: 1, signal: null })
      expect(fixture.stderr()).toContain('disk on fire')
      expect(await readLines(marker)).toEqual([])
    })
  })

  it("reach the stream's owner and do not start a shutdown when the owner listens", async () => {
    await withTempDir(async (dir) => {
      const marker = join(dir, 'marker')
      const report = join(dir, 'report.json')
      const fixture = spawnFixture('epipe-writer.ts', {
        env: { FIXTURE_MARKER: marker, FIXTURE_REPORT: report, FIXTURE_MODE: 'owned-error' },
      })
      expect(await fixture.exit).toEqual({ code: 0, signal: null })
      expect(await readLines(marker)).toEqual(['owner:EIO', 'survived', 'transcript:flushed'])
      expect((await readReport(report)).reason).toEqual({ type: 'exit', code: 0 })
    })
  })
})

describe('in-process', () => {
  it('destroys the stream (later writes are silent no-ops) and exits with the configured code', async () => {
    const parts = fakes()
    const shutdown = createShutdown({ ...parts, onReport: () => {} })
    shutdown.guardEpipe(parts.stdout)
    let cleaned = false
    shutdown.registerCleanup(() => {
      cleaned = true
    })
    parts.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
    expect(parts.stdout.destroyed).toBe(true)
    expect(() => parts.stdout.write('after\n')).not.toThrow()
    const report = await shutdown.gracefulExit(9)
    expect(cleaned).toBe(true)
    expect(parts.process.exits).toEqual([0])
    expect(report.reason).toEqual({ type: 'epipe', stream: 'stdout' })
    expect(report.laterReasons).toEqual([{ type: 'exit', code: 9 }])
    expect(parts.stdout.text).toBe('')
  })

  it('a second guard on the same stream (another instance, another copy) does not make other errors silent', () => {
    const parts = fakes()
    createShutdown(parts).guardEpipe(parts.stdout)
    createShutdown(parts).guardEpipe(parts.stdout)
    const eio = Object.assign(new Error('write EIO'), { code: 'EIO' })
    // With no listener of its own, Node throws an unhandled 'error'; two guards must not change that.
    expect(() => parts.stdout.emit('error', eio)).toThrow(eio)
  })

  it('the returned function removes the guard', () => {
    const parts = fakes()
    const shutdown = createShutdown(parts)
    const unguard = shutdown.guardEpipe(parts.stderr)
    expect(parts.stderr.listenerCount('error')).toBe(1)
    unguard()
    expect(parts.stderr.listenerCount('error')).toBe(0)
  })
})
