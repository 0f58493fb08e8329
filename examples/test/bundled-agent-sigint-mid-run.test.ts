// Ctrl-C in the middle of a run of the bundled agent: it ends by SIGINT (130 in a shell) once the transcript
// flush completed, and every record accepted before the signal is on disk — the shutdown package's handlers work inside a bundle.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { bundle, startBundledAgent, type Bundle } from './helpers/bundled-agent.js'
import { expectOneUnbrokenRun, readCleanSession, shutdownLine } from './helpers/transcript.js'

describe('SIGINT in the middle of a bundled run', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let built: Bundle
  beforeAll(async () => {
    scratch = await scratchDir('bundle-sigint')
    built = await bundle(scratch.path)
  })
  afterAll(() => scratch.remove())

  it('ends by SIGINT (report exitCode 130) and flushes every accepted record', async () => {
    const dir = join(scratch.path, 'sessions')
    const agent = startBundledAgent(
      built.file,
      ['--dir', dir, '--session', 'interrupted', '--turns', '500', '--delay-ms', '5', '--print', '--json'],
      scratch.path,
    )
    await agent.stdoutLines(12)
    agent.child.kill('SIGINT')
    const { code, signal, stderr } = await agent.finished

    expect({ code, signal }, stderr).toEqual({ code: null, signal: 'SIGINT' })
    const line = shutdownLine(stderr)
    expect(line.report.reason).toMatch(/SIGINT/)
    expect(line.report.cleanups).toContainEqual(expect.objectContaining({ name: 'transcript', status: 'ok' }))
    const records = await readCleanSession(join(dir, 'interrupted.jsonl'))
    expect(records.length).toBeGreaterThanOrEqual(12)
    expect(records.length, 'every record accepted before the signal is on disk').toBe(line.recorded)
    expectOneUnbrokenRun(records)
    expect(records.length, 'the run really was cut short').toBeLessThan(2000)
  })
})
