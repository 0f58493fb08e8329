// The README's demo command runs this agent with no arguments but a folder: it must finish, say where the
// transcript is and how to inspect it, and leave a transcript that verifies clean.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgent, scratchDir } from './helpers/agent-process.js'
import { expectOneUnbrokenRun, readCleanSession } from './helpers/transcript.js'

describe('the demo run', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('demo')))
  afterAll(() => scratch.remove())

  it('prints a readable summary with the transcript path and the inspect commands', async () => {
    const dir = join(scratch.path, 'sessions')
    const { code, stdout, stderr } = await runAgent(['--dir', dir])
    expect(code, stderr).toBe(0)
    const file = /transcript (\S+\.jsonl)/.exec(stdout)?.[1]
    expect(file, stdout).toBeDefined()
    expect(stdout).toContain(`sessiontape show ${file}`)
    expect(stdout).toContain(`sessiontape verify ${file}`)

    const records = await readCleanSession(file as string)
    expectOneUnbrokenRun(records)
    expect(stdout).toContain(`recorded   ${records.length} events`)
    expect(records.map((record) => record.type)).toEqual([
      'title',
      'session_start',
      ...Array.from({ length: 4 }, () => ['user', 'assistant', 'tool_result', 'assistant']).flat(),
      'session_end',
    ])
  })

  it('--json prints one machine-readable summary', async () => {
    const dir = join(scratch.path, 'json')
    const { code, stdout, stderr } = await runAgent([
      '--dir',
      dir,
      '--session',
      'json-run',
      '--turns',
      '2',
      '--json',
    ])
    expect(code, stderr).toBe(0)
    const summary = JSON.parse(stdout) as Record<string, unknown>
    expect(summary).toMatchObject({ sessionId: 'json-run', transcript: join(dir, 'json-run.jsonl') })
    expect(summary['persisted']).toBe(summary['recorded'])
  })

  it('--help prints every flag, whole, even through a pipe', async () => {
    const { code, stdout } = await runAgent(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^usage: agent/)
    expect(stdout.trimEnd()).toMatch(/-h, --help +this text$/)
  })

  it('bad flags get a usage message and exit code 2', async () => {
    const { code, stderr } = await runAgent(['--turns', 'many'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--turns expects a whole number/)
    expect(stderr).toMatch(/usage: agent/)
  })
})
