// `bundled-agent --print | head -1`: the reader goes away after one line. The bundled agent must end
// normally (exit 0) with every accepted record on disk, as the unbundled one does.
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { bundle, type Bundle } from './helpers/bundled-agent.js'
import { expectOneUnbrokenRun, readCleanSession, shutdownLine } from './helpers/transcript.js'

const run = promisify(execFile)
const ITERATIONS = 5
const SCRIPT = ['--turns', '40', '--seed', '7', '--delay-ms', '2', '--json', '--print'] as const

describe('the bundled agent piped to head -1', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let built: Bundle
  beforeAll(async () => {
    scratch = await scratchDir('bundle-epipe')
    built = await bundle(scratch.path)
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
      const dir = join(scratch.path, sessionId, 'sessions')
      const stderrFile = join(scratch.path, `${sessionId}.stderr`)
      const firstFile = join(scratch.path, `${sessionId}.first`)
      const agent = [process.execPath, built.file, ...SCRIPT, '--dir', dir, '--session', sessionId]
      const script =
        `${agent.map(quote).join(' ')} 2>${quote(stderrFile)} | head -1 > ${quote(firstFile)};` +
        ` echo "\${PIPESTATUS[0]}"`
      const { stdout } = await run('bash', ['-c', script], {
        cwd: scratch.path,
        env: { ...process.env, NODE_OPTIONS: '', INIT_CWD: scratch.path },
      })
      const stderr = await readFile(stderrFile, 'utf8')

      expect(stdout.trim(), `iteration ${iteration}: the agent's own exit code\n${stderr}`).toBe('0')
      expect((JSON.parse(await readFile(firstFile, 'utf8')) as { type: string }).type).toBe('title')
      const records = await readCleanSession(join(dir, `${sessionId}.jsonl`))
      expectOneUnbrokenRun(records)
      const report = shutdownLine(stderr)
      expect(report.report.reason, 'the run ended because the reader went away').toMatch(/epipe/i)
      expect(records.length, 'every accepted record is on disk').toBe(report.recorded)
      expect(report.persisted).toBe(report.recorded)
    },
  )
})
