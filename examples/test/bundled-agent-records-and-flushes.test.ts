// The agents we are for ship as one esbuild bundle. Bundled that way (platform node, format esm, nothing
// external but Node's built-ins) and run from a folder with no node_modules, the example agent must record
// and flush exactly as it does unbundled: before the first loading fix, createRecorder() threw
// "Cannot find module 'write-file-atomic'" here. Every other bundler: bundled-by-every-bundler-*.test.ts.
import { join } from 'node:path'
import { access } from 'node:fs/promises'
import { listSessions, readSession } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import {
  bundle,
  importsOnlyBuiltins,
  runBundledAgent,
  startBundledAgent,
  type Bundle,
} from './helpers/bundled-agent.js'
import { expectOneUnbrokenRun, readCleanSession, shutdownLine } from './helpers/transcript.js'

describe('the example agent bundled by esbuild into one file', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let built: Bundle
  beforeAll(async () => {
    scratch = await scratchDir('bundle')
    built = await bundle(scratch.path)
  })
  afterAll(() => scratch.remove())

  it('holds every dependency: it imports nothing at run time but Node built-ins', () => {
    expect(importsOnlyBuiltins(built), built.runtimeImports.join(', ')).toBe(true)
    for (const dependency of ['proper-lockfile', 'p-queue', 'lru-cache']) {
      expect(
        built.inputs.some((input) => input.includes(`/${dependency}/`)),
        dependency,
      ).toBe(true)
    }
  })

  it('records and flushes every event, and the session verifies clean', async () => {
    const dir = join(scratch.path, 'run', 'sessions')
    const { code, stdout, stderr } = await runBundledAgent(
      built.file,
      ['--dir', dir, '--session', 'bundled', '--turns', '3', '--json'],
      scratch.path,
    )
    expect(code, stderr).toBe(0)
    const summary = JSON.parse(stdout) as { recorded: number; persisted: number; transcript: string }
    expect(summary.transcript).toBe(join(dir, 'bundled.jsonl'))
    const records = await readCleanSession(summary.transcript)
    expectOneUnbrokenRun(records)
    expect(records).toHaveLength(summary.recorded)
    expect(summary.persisted).toBe(summary.recorded)
    expect(shutdownLine(stderr).report.cleanups).toContainEqual(
      expect.objectContaining({ name: 'transcript', status: 'ok' }),
    )
    // The lock (proper-lockfile) was taken and released, and the sidecar written.
    const sessions = await listSessions(dir)
    expect(sessions.map((session) => [session.sessionId, session.recordCount])).toEqual([
      ['bundled', records.length],
    ])
    expect((await readSession(summary.transcript)).problems).toEqual([])
  })

  it('refuses a second live writer of the same session through the bundled lock', async () => {
    const dir = join(scratch.path, 'locked', 'sessions')
    const first = startBundledAgent(
      built.file,
      ['--dir', dir, '--session', 'held', '--turns', '100000', '--delay-ms', '5', '--print'],
      scratch.path,
    )
    // Its first printed record means the lock is taken and writing has begun.
    await first.stdoutLines(1)
    await access(join(dir, '.sessiontape', 'held.jsonl.lock'))
    const second = await runBundledAgent(
      built.file,
      ['--dir', dir, '--session', 'held', '--turns', '1'],
      scratch.path,
    )
    expect(second.code, second.stderr).toBe(75)
    first.child.kill('SIGINT')
    // Cleanups ran, then the signal was re-raised: the parent sees a death by SIGINT (a shell shows 130).
    expect((await first.finished).signal).toBe('SIGINT')
  })
})
