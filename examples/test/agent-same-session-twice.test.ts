// Two agents on one session id: the second is refused with a clear message and its own exit code, and the
// first one's transcript is untouched by it.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgent, scratchDir, startAgent } from './helpers/agent-process.js'
import { expectOneUnbrokenRun, readCleanSession } from './helpers/transcript.js'

describe('two agents on the same session', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('twice')))
  afterAll(() => scratch.remove())

  it('refuses the second one and keeps the first one intact', async () => {
    const dir = join(scratch.path, 'sessions')
    const first = startAgent([
      '--dir',
      dir,
      '--session',
      'shared',
      '--turns',
      '500',
      '--delay-ms',
      '5',
      '--print',
    ])
    await first.stdoutLines(4)

    const second = await runAgent(['--dir', dir, '--session', 'shared', '--turns', '2'])
    expect(second.code).toBe(75)
    // One clear line, not a stack trace or a report of cleanups that had nothing to do.
    expect(second.stderr.trim()).toBe(
      'agent: session shared is being recorded by another live process; wait for it to finish, or start a new session',
    )

    first.child.kill('SIGTERM')
    const ended = await first.finished
    // The shutdown package re-raises the signal after its cleanups: the parent sees a death by SIGTERM.
    expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({
      code: null,
      signal: 'SIGTERM',
    })
    const records = await readCleanSession(join(dir, 'shared.jsonl'))
    expectOneUnbrokenRun(records)
    expect(records.every((record) => record['pid'] === undefined || record['pid'] === first.child.pid)).toBe(
      true,
    )
  })
})
