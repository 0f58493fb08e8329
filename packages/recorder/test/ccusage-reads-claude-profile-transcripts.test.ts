import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { claudeProjectDir, createRecorder } from '../src/index.js'
import { ccusageBin, CCUSAGE_VERSION, runCcusage } from './helpers/ccusage.js'
import { withTempDir } from './helpers/records.js'

interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_creation_input_tokens?: number
  readonly cache_read_input_tokens?: number
}

/** An assistant turn in the documented shape: usage under `message.usage`, `message.id` + `requestId`. */
function assistant(n: number, usage: Usage) {
  return {
    requestId: `req_${n}`,
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: [{ type: 'text', text: `answer ${n}` }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    },
  }
}

let found: Awaited<ReturnType<typeof ccusageBin>>

beforeAll(async () => {
  found = await ccusageBin()
}, 180_000)

describe(`ccusage ${CCUSAGE_VERSION} reads a transcript written with profile: 'claude-code'`, () => {
  it('reports the token totals that were recorded', async (context) => {
    if ('reason' in found) {
      console.warn(`skipped: ${found.reason}`)
      // ccusage could not be installed from the registry (offline): skipped with that reason, never passed.
      context.skip(found.reason)
      return
    }
    const { bin } = found
    await withTempDir(async (configDir) => {
      const dir = claudeProjectDir(path.join(configDir, 'projects'), '/home/dev/app')
      const recorder = createRecorder({
        dir,
        profile: 'claude-code',
        profileFields: { cwd: '/home/dev/app', version: '2.1.3', gitBranch: 'main' },
      })
      const usages: Usage[] = [
        {
          input_tokens: 1200,
          output_tokens: 300,
          cache_creation_input_tokens: 50,
          cache_read_input_tokens: 400,
        },
        { input_tokens: 800, output_tokens: 200 },
        { input_tokens: 15, output_tokens: 4000, cache_read_input_tokens: 9000 },
      ]
      let minute = 0
      for (const [n, usage] of usages.entries()) {
        const at = (m: number) => ({ timestamp: `2026-02-01T10:${String(m).padStart(2, '0')}:00Z` })
        recorder.record('user', { message: { role: 'user', content: `question ${n}` } }, at(minute++))
        recorder.record('assistant', assistant(n, usage), at(minute++))
        // Metadata and tool turns in between change nothing for ccusage.
        if (n === 0) recorder.record('title', { title: 'Token test' })
      }
      await recorder.close()

      const { code, stdout, stderr } = await runCcusage(bin, configDir, ['daily', '--json', '--offline'])
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) as string })
      const report = JSON.parse(stdout) as { daily: Array<{ date: string }>; totals: Record<string, number> }
      const sum = (pick: (u: Usage) => number | undefined) =>
        usages.reduce((total, u) => total + (pick(u) ?? 0), 0)
      expect(report.totals).toMatchObject({
        inputTokens: sum((u) => u.input_tokens),
        outputTokens: sum((u) => u.output_tokens),
        cacheCreationTokens: sum((u) => u.cache_creation_input_tokens),
        cacheReadTokens: sum((u) => u.cache_read_input_tokens),
      })
      // Imported history keeps its own date: the caller-given timestamps, not the day of the test.
      expect(report.daily.map((d) => d.date)).toEqual(['2026-02-01'])
    })
  }, 120_000)
})
