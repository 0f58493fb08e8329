// A cleanup that never settles (a stuck exporter, a dead socket) must not hang the exit: the agent still
// exits within the wall-clock bound, the report names the cleanup that hung, and the transcript is whole.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgent, scratchDir } from './helpers/agent-process.js'
import { expectOneUnbrokenRun, readCleanSession, shutdownLine } from './helpers/transcript.js'

const EXIT_BOUND_MS = 3000

describe('a cleanup that hangs', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('hung')))
  afterAll(() => scratch.remove())

  it('is cut off, named in the report, and the transcript is still flushed', async () => {
    const dir = join(scratch.path, 'sessions')
    const { code, stderr } = await runAgent([
      '--dir',
      dir,
      '--session',
      'hung',
      '--turns',
      '3',
      '--json',
      '--hang-cleanup',
      '--exit-timeout-ms',
      String(EXIT_BOUND_MS),
    ])

    // The hung cleanup keeps the process alive with a timer that is never cleared: that the agent exits at
    // all, with code 0, is the bound at work. No wall-clock assertion: how long a loaded machine takes to
    // start the process says nothing about the code. The report names the cleanup that was cut off.
    expect(code, stderr).toBe(0)
    const line = shutdownLine(stderr)
    expect(line.report.cleanups).toContainEqual(
      expect.objectContaining({ name: 'hung-exporter', status: 'timed-out' }),
    )
    expect(line.report.cleanups).toContainEqual(expect.objectContaining({ name: 'transcript', status: 'ok' }))

    const records = await readCleanSession(join(dir, 'hung.jsonl'))
    expectOneUnbrokenRun(records)
    expect(records.at(-1)?.type).toBe('session_end')
    expect(records.length).toBe(line.recorded)
  })
})
