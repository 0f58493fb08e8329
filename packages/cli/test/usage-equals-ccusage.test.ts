import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ccusageBin, runCcusage } from '../../recorder/test/helpers/ccusage.js'
import { runInProcess } from './helpers/cli.js'
import { writeClaudeProjects } from './helpers/claude-usage-sessions.js'
import { samplesOf } from '../../sessions/test/helpers/samples.js'

const ccusage = await ccusageBin('ccusage')

let tmp: string
let configDir: string
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cli-usage-ccusage-'))
  configDir = path.join(tmp, 'claude')
  const projects = await writeClaudeProjects(configDir)
  // Other tools' Claude Code test data too, when it is beside the repository (../shared/samples).
  const samples = samplesOf('claude-code')
  if (samples.length > 0) {
    await mkdir(path.join(projects, 'samples'), { recursive: true })
    for (const file of samples) await cp(file, path.join(projects, 'samples', path.basename(file)))
  }
})
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

interface CcusageDay {
  date: string
  inputTokens: number
  outputTokens: number
  cacheCreationTokens: number
  cacheReadTokens: number
}

describe.skipIf('reason' in ccusage)(
  `sessiontape usage equals ccusage's daily totals on Claude Code sessions${'reason' in ccusage ? ` (skipped: ${ccusage.reason})` : ''}`,
  () => {
    it('per day and in total: input + cache creation + cache read, cache read, cache creation, output', async () => {
      const bin = (ccusage as { bin: string }).bin
      const theirs = await runCcusage(bin, configDir, ['daily', '--json', '--offline', '--timezone', 'UTC'])
      expect(theirs.code, theirs.stderr).toBe(0)
      const { daily, totals } = JSON.parse(theirs.stdout) as {
        daily: CcusageDay[]
        totals: Omit<CcusageDay, 'date'>
      }
      const ours = await runInProcess(
        'usage',
        path.join(configDir, 'projects'),
        '--by',
        'day',
        '--timezone',
        'UTC',
        '--json',
      )
      expect(ours.code).toBe(0)
      const { days, totals: ourTotals } = JSON.parse(ours.stdout) as {
        days: {
          date: string
          inputTokens: number
          cacheReadInputTokens: number
          cacheCreationInputTokens: number
          outputTokens: number
        }[]
        totals: {
          inputTokens: number
          cacheReadInputTokens: number
          cacheCreationInputTokens: number
          outputTokens: number
        }
      }
      const asCcusage = (d: Omit<(typeof days)[number], 'date'>) => ({
        inputTokens: d.inputTokens - d.cacheReadInputTokens - d.cacheCreationInputTokens,
        cacheReadTokens: d.cacheReadInputTokens,
        cacheCreationTokens: d.cacheCreationInputTokens,
        outputTokens: d.outputTokens,
      })
      const pick = ({
        inputTokens,
        cacheReadTokens,
        cacheCreationTokens,
        outputTokens,
      }: Omit<CcusageDay, 'date'>) => ({
        inputTokens,
        cacheReadTokens,
        cacheCreationTokens,
        outputTokens,
      })
      expect(days.map((d) => ({ date: d.date, ...asCcusage(d) }))).toEqual(
        [...daily].sort((a, b) => (a.date < b.date ? -1 : 1)).map((d) => ({ date: d.date, ...pick(d) })),
      )
      expect(asCcusage(ourTotals)).toEqual(pick(totals))
      expect(daily.length).toBeGreaterThanOrEqual(2)
    })
  },
)
