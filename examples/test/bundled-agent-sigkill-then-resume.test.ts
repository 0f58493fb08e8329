// SIGKILL of the bundled agent mid-write, then `--resume` with the same bundle: the transcript reads back
// as a clean prefix (at most one torn last line), and the resumed run repairs the tail and continues the
// chain from the last whole record. The lock the killed run left behind is taken over at once.
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { activeBranch, readSession } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRandom } from '../agent/script.js'
import { scratchDir } from './helpers/agent-process.js'
import { bundle, runBundledAgent, startBundledAgent, type Bundle } from './helpers/bundled-agent.js'
import { expectOneUnbrokenRun } from './helpers/transcript.js'

// Fewer seeds than the unbundled test (agent-sigkill-then-resume): this one proves the bundle, that one
// the recovery itself.
const SEEDS = [2000, 2001, 2002, 2003, 2004, 2005]

describe('SIGKILL of the bundled agent, then --resume', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let built: Bundle
  beforeAll(async () => {
    scratch = await scratchDir('bundle-sigkill')
    built = await bundle(scratch.path)
  })
  afterAll(() => scratch.remove())

  it.for(SEEDS)('seed %i: a clean prefix that resumes without orphans', async (seed) => {
    const dir = join(scratch.path, `seed-${seed}`, 'sessions')
    const sessionId = `killed-${seed}`
    const file = join(dir, `${sessionId}.jsonl`)
    const agent = startBundledAgent(
      built.file,
      ['--dir', dir, '--session', sessionId, '--seed', String(seed), '--turns', '100000'].concat([
        '--pad-bytes',
        '20000',
        '--print',
      ]),
      scratch.path,
    )
    await agent.stdoutLines(1)
    await sleep(Math.floor(createRandom(seed)() * 150))
    agent.child.kill('SIGKILL')
    expect((await agent.finished).signal).toBe('SIGKILL')

    const afterKill = await readSession(file)
    const kinds = afterKill.problems.map((problem) => problem.kind)
    expect(kinds.filter((kind) => kind !== 'torn-tail')).toEqual([])
    expect(kinds.length).toBeLessThanOrEqual(1)
    expectOneUnbrokenRun(afterKill.records)

    const resumed = await runBundledAgent(
      built.file,
      ['--dir', dir, '--resume', sessionId, '--turns', '1', '--seed', String(seed)],
      scratch.path,
    )
    expect(resumed.code, resumed.stderr).toBe(0)

    const afterResume = await readSession(file)
    expect(afterResume.problems, 'the tail was repaired').toEqual([])
    expect(afterResume.records.slice(0, afterKill.records.length)).toEqual(afterKill.records)
    const appended = afterResume.records.slice(afterKill.records.length)
    expect(appended.length).toBeGreaterThan(0)
    expect(appended[0]?.parentUuid).toBe(afterKill.records.at(-1)?.uuid ?? null)
    if (kinds.length === 1) expect(appended[0]?.type).toBe('recovered')
    const branch = activeBranch(afterResume.records)
    expect(branch.gaps).toEqual([])
    // Every record but the metadata beside the chain (`title`, `recovered`) is on the branch.
    const chained = afterResume.records.filter((r) => r.type !== 'title' && r.type !== 'recovered')
    expect(branch.records.length).toBe(chained.length)
  })
})
