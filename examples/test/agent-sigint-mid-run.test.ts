// Ctrl-C in the middle of a run: the agent exits 130 like any well-behaved CLI, its shutdown report shows
// the transcript flush completed, and every record it accepted before the signal is on disk.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir, startAgent } from './helpers/agent-process.js'
import { expectOneUnbrokenRun, readCleanSession, shutdownLine } from './helpers/transcript.js'

describe('SIGINT in the middle of a run', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('sigint')))
  afterAll(() => scratch.remove())

  it.for(['SIGINT', 'SIGTERM'] as const)(
    '%s: ends by the signal, flushes every accepted record',
    async (signal) => {
      const dir = join(scratch.path, signal, 'sessions')
      const agent = startAgent([
        '--dir',
        dir,
        '--session',
        'interrupted',
        '--turns',
        '500',
        '--delay-ms',
        '5',
        '--print',
        '--json',
      ])
      await agent.stdoutLines(12)
      agent.child.kill(signal)
      const { code, signal: endedBy, stderr } = await agent.finished

      // After its cleanups the shutdown package re-raises the signal, so the parent sees a death by it.
      expect({ code, signal: endedBy }, stderr).toEqual({ code: null, signal })
      expect(shutdownLine(stderr).report.exitCode).toBe(signal === 'SIGINT' ? 130 : 143)
      const line = shutdownLine(stderr)
      expect(line.report.reason).toMatch(new RegExp(signal))
      expect(line.report.cleanups).toContainEqual(
        expect.objectContaining({ name: 'transcript', status: 'ok' }),
      )
      expect(line.report.cleanups).toContainEqual(
        expect.objectContaining({ name: 'agent-loop', status: 'ok' }),
      )

      const records = await readCleanSession(join(dir, 'interrupted.jsonl'))
      expect(records.length).toBeGreaterThanOrEqual(12)
      expect(records.length, 'every record accepted before the signal is on disk').toBe(line.recorded)
      expectOneUnbrokenRun(records)
      // The run really was cut short: 500 turns would be 2,000+ events.
      expect(records.length).toBeLessThan(2000)
    },
  )
})
