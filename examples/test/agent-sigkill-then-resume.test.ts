// SIGKILL gives no chance to clean up. Whatever moment it lands, the transcript must read back as a clean
// prefix of the run (at most one torn last line), and `--resume` must repair that tail and continue the
// chain from the last whole record, leaving no orphan.
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { activeBranch, readSession } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRandom } from '../agent/script.js'
import { agentEntry, examplesDir, scratchDir } from './helpers/agent-process.js'
import { bundle, runBundledAgent, startBundledAgent } from './helpers/bundled-agent.js'
import { expectOneUnbrokenRun } from './helpers/transcript.js'

const ITERATIONS = 50
const CONCURRENCY = 2

async function killAndResume(
  agent: string,
  root: string,
  seed: number,
): Promise<{ torn: boolean; kept: number }> {
  const dir = join(root, `seed-${seed}`, 'sessions')
  const sessionId = `killed-${seed}`
  const file = join(dir, `${sessionId}.jsonl`)
  const random = createRandom(seed)
  // A heavy run: fat records, no pauses, so the kill lands in the middle of writes.
  const running = startBundledAgent(
    agent,
    [
      '--dir',
      dir,
      '--session',
      sessionId,
      '--seed',
      String(seed),
      '--turns',
      '100000',
      '--pad-bytes',
      '20000',
      '--print',
    ],
    examplesDir,
  )
  await running.stdoutLines(1)
  await sleep(Math.floor(random() * 150))
  running.child.kill('SIGKILL')
  const killed = await running.finished
  expect(killed.signal).toBe('SIGKILL')

  const afterKill = await readSession(file)
  const kinds = afterKill.problems.map((problem) => problem.kind)
  expect(
    kinds.filter((kind) => kind !== 'torn-tail'),
    `seed ${seed}: ${JSON.stringify(afterKill.problems)}`,
  ).toEqual([])
  expect(kinds.length).toBeLessThanOrEqual(1)
  expectOneUnbrokenRun(afterKill.records)
  const lastBefore = afterKill.records.at(-1)

  const resumed = await runBundledAgent(
    agent,
    ['--dir', dir, '--resume', sessionId, '--turns', '1', '--seed', String(seed)],
    examplesDir,
  )
  expect(resumed.code, resumed.stderr).toBe(0)

  const afterResume = await readSession(file)
  expect(afterResume.problems, `seed ${seed}: the tail was repaired`).toEqual([])
  const appended = afterResume.records.slice(afterKill.records.length)
  expect(afterResume.records.slice(0, afterKill.records.length)).toEqual(afterKill.records)
  expect(appended.length).toBeGreaterThan(0)
  expect(appended[0]?.parentUuid, 'the resumed run continues from the last whole record').toBe(
    lastBefore?.uuid ?? null,
  )
  if (kinds.length === 1) expect(appended[0]?.type).toBe('recovered')

  // Walking back from the new leaf reaches the first record of the first run: no orphan, no gap.
  const branch = activeBranch(afterResume.records)
  expect(branch.gaps).toEqual([])
  // (The run's `title` record is metadata beside the chain: the first conversation record is the root.)
  expect(branch.records[0]?.uuid).toBe(afterResume.records.find((r) => r.type !== 'title')?.uuid)
  // Every record but the metadata beside the chain (`title`, `recovered`) is on the branch.
  const chained = afterResume.records.filter((r) => r.type !== 'title' && r.type !== 'recovered')
  expect(branch.records.length).toBe(chained.length)
  return { torn: kinds.length === 1, kept: afterKill.records.length }
}

describe('SIGKILL at random moments, then --resume', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let agent: string
  beforeAll(async () => {
    scratch = await scratchDir('sigkill')
    // The agent's live TypeScript sources (packages included), compiled once by esbuild and started with
    // plain node: the same code tsx would run, without tsx compiling it again at each of the 100 starts,
    // which was most of this test's time. (bundled-agent-sigkill-then-resume runs the published dist/.)
    agent = (await bundle(scratch.path, agentEntry, 'agent-from-source', { fromSource: true })).file
  })
  afterAll(() => scratch.remove())

  it(`leaves a clean prefix that resumes without orphans (${ITERATIONS} seeds)`, async () => {
    const seeds = Array.from({ length: ITERATIONS }, (_, index) => 1000 + index)
    const outcomes: Array<{ torn: boolean; kept: number }> = []
    for (let start = 0; start < seeds.length; start += CONCURRENCY) {
      const batch = seeds.slice(start, start + CONCURRENCY)
      outcomes.push(...(await Promise.all(batch.map((seed) => killAndResume(agent, scratch.path, seed)))))
    }
    expect(outcomes).toHaveLength(ITERATIONS)
    // The kills landed at different points of the run, not all at the same record count.
    expect(new Set(outcomes.map((outcome) => outcome.kept)).size).toBeGreaterThan(1)
    // 50 pairs of child processes: past the project's 120 s at load ~20 (a fresh-clone run beside other
    // work) when each started tsx. The timeout only catches a hang; the assertions are the test.
  }, 600_000)
})
