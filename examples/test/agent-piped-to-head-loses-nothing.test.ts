// `agent --print | head -1`: the reader goes away after one line, the agent's next write to stdout fails
// with EPIPE. The agent must end normally (exit 0) and its transcript must hold every record it accepted
// — the same records, in the same order, as a run whose output nobody cut short.
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentEntry, examplesDir, nodeArgs, runAgent, scratchDir } from './helpers/agent-process.js'
import {
  expectOneUnbrokenRun,
  readCleanSession,
  scriptedContent,
  shutdownLine,
} from './helpers/transcript.js'

const run = promisify(execFile)
const ITERATIONS = 20
const SCRIPT = ['--turns', '40', '--seed', '7', '--delay-ms', '2', '--json'] as const

describe('agent --print | head -1', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let unpiped: unknown[]

  beforeAll(async () => {
    scratch = await scratchDir('epipe')
    const dir = join(scratch.path, 'reference', 'sessions')
    const reference = await runAgent([...SCRIPT, '--dir', dir, '--session', 'reference'])
    expect(reference.code, reference.stderr).toBe(0)
    const records = await readCleanSession(join(dir, 'reference.jsonl'))
    expectOneUnbrokenRun(records)
    unpiped = records.map(scriptedContent)
  })
  afterAll(() => scratch.remove())

  // One test per run: each starts a fresh agent process (seconds under load), and a test's timeout is a
  // hang detector for one run, not a bound on all of them in a row.
  const iterations = Array.from({ length: ITERATIONS }, (_, iteration) => iteration)
  it.each(iterations)(
    `run %i of ${ITERATIONS} in a row: exits 0 with the whole accepted transcript on disk`,
    async (iteration) => {
      const quote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`
      const sessionId = `piped-${iteration}`
      // Each run gets its own sessions folder and, next to it, its own sample workspace.
      const dir = join(scratch.path, sessionId, 'sessions')
      const agent = [process.execPath, ...nodeArgs, agentEntry, ...SCRIPT, '--print']
      const script =
        `${agent.map(quote).join(' ')} --dir ${quote(dir)} --session ${sessionId} 2>${quote(join(scratch.path, `${sessionId}.stderr`))}` +
        ` | head -1 > ${quote(join(scratch.path, `${sessionId}.first`))}; echo "\${PIPESTATUS[0]}"`
      const { stdout } = await run('bash', ['-c', script], {
        cwd: examplesDir,
        env: { ...process.env, INIT_CWD: examplesDir },
      })
      const stderr = await readFile(join(scratch.path, `${sessionId}.stderr`), 'utf8')

      expect(stdout.trim(), `iteration ${iteration}: the agent's own exit code\n${stderr}`).toBe('0')
      const firstLine = JSON.parse(await readFile(join(scratch.path, `${sessionId}.first`), 'utf8')) as {
        type: string
      }
      expect(firstLine.type).toBe('title')

      const records = await readCleanSession(join(dir, `${sessionId}.jsonl`))
      expectOneUnbrokenRun(records)
      const report = shutdownLine(stderr)
      expect(report.report.reason, 'the run ended because the reader went away').toMatch(/epipe/i)
      expect(records.length, 'every accepted record is on disk').toBe(report.recorded)
      expect(report.persisted).toBe(report.recorded)
      expect(report.report.cleanups).toContainEqual(
        expect.objectContaining({ name: 'transcript', status: 'ok' }),
      )
      // The same script produced the same events: the piped run is the unpiped run, cut short cleanly.
      expect(records.map(scriptedContent)).toEqual(unpiped.slice(0, records.length))
    },
  )
})
