// The root README's whole-agent block, as a newcomer copies it: bundled as the README's "Bundling" says
// (esbuild, one ESM file with the README's banner), run from a folder with no node_modules, then ended by
// Ctrl-C and by `| head -1`. It must end quietly — no uncaught `RecorderClosedError` from its loop, no stack
// trace, nothing on stderr — with every turn it printed on disk. The block is read from the README here, so
// the README and this test cannot drift apart.
import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { readSession } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scratchDir } from './helpers/agent-process.js'
import { bundle, startBundledAgent, type Bundle } from './helpers/bundled-agent.js'
import { repoDir } from './helpers/readme-samples.js'

const run = promisify(execFile)
const MARKER = '<!-- readme-agent: the test extracts the next ts block -->'

async function readmeAgent(): Promise<string> {
  const readme = await readFile(join(repoDir, 'README.md'), 'utf8')
  const after = readme.split(MARKER)[1]
  const code = after === undefined ? undefined : /^\s*```ts\n([\s\S]*?)\n```/.exec(after)?.[1]
  if (code === undefined) throw new Error(`README.md has no ts block after ${MARKER}`)
  return code
}

/** The turns in the transcript, in order, and whatever readSession found wrong with it. */
async function turnsOnDisk(dir: string): Promise<{ turns: string[]; problems: unknown[] }> {
  const transcript = (await readdir(dir)).find((name) => name.endsWith('.jsonl'))
  if (transcript === undefined) return { turns: [], problems: ['no transcript'] }
  const { records, problems } = await readSession(join(dir, transcript))
  return { turns: records.map((record) => String(record['text'])), problems: [...problems] }
}

describe("the root README's agent, bundled as the README says", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let built: Bundle
  beforeAll(async () => {
    scratch = await scratchDir('readme-agent')
    built = await bundle(scratch.path, { contents: await readmeAgent() }, 'readme-agent')
  })
  afterAll(() => scratch.remove())

  it('Ctrl-C mid-run: ends by SIGINT, nothing on stderr, every printed turn on disk', async () => {
    const dir = join(scratch.path, 'sigint')
    const agent = startBundledAgent(built.file, [dir], scratch.path)
    await agent.stdoutLines(3)
    agent.child.kill('SIGINT')
    const { code, signal, stdout, stderr } = await agent.finished

    expect(stderr).toBe('')
    // After the cleanups the signal is re-raised: a shell sees 130 and stops its script.
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGINT' })
    const printed = stdout.split('\n').filter((line) => line !== '')
    const { turns, problems } = await turnsOnDisk(dir)
    expect(problems).toEqual([])
    expect(turns).toEqual(printed)
    expect(turns.length).toBeLessThan(100)
  })

  it('piped to head -1: exits 0, nothing on stderr, the turns it recorded on disk in order', async () => {
    const dir = join(scratch.path, 'head')
    const stderrFile = join(scratch.path, 'head.stderr')
    const quote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`
    const agent = [process.execPath, built.file, dir].map(quote).join(' ')
    const { stdout } = await run(
      'bash',
      ['-c', `${agent} 2>${quote(stderrFile)} | head -1; echo "exit \${PIPESTATUS[0]}"`],
      { cwd: scratch.path, env: { ...process.env, NODE_OPTIONS: '' } },
    )

    expect(await readFile(stderrFile, 'utf8')).toBe('')
    expect(stdout).toBe('turn 1\nexit 0\n')
    const { turns, problems } = await turnsOnDisk(dir)
    expect(problems).toEqual([])
    expect(turns.length).toBeGreaterThan(0)
    expect(turns).toEqual(turns.map((_, index) => `turn ${index + 1}`))
  })
})
