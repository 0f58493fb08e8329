import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { claudeProjectDir, createRecorder, type Turn, type TurnUsage } from '../src/index.js'
import { ccusageBin, CCUSAGE_VERSION, runCcusage, runCcusageCodex } from './helpers/ccusage.js'
import { withTempDir } from './helpers/records.js'

/** Three requests' usage: cached input and reasoning in some, neither in others. */
const USAGES: readonly TurnUsage[] = [
  { inputTokens: 1650, cacheReadInputTokens: 400, cacheCreationInputTokens: 50, outputTokens: 300 },
  { inputTokens: 800, outputTokens: 200, reasoningOutputTokens: 120 },
  { inputTokens: 9015, cacheReadInputTokens: 9000, outputTokens: 4000 },
]
const sum = (pick: (usage: TurnUsage) => number | undefined): number =>
  USAGES.reduce((total, usage) => total + (pick(usage) ?? 0), 0)

/** A session of user, tool and assistant turns, each assistant turn with one of {@link USAGES}. */
function conversation(): Array<{ turn: Turn; at: string }> {
  const turns: Array<{ turn: Turn; at: string }> = []
  let minute = 0
  const at = (): string => `2026-02-01T10:${String(minute++).padStart(2, '0')}:00Z`
  for (const [n, usage] of USAGES.entries()) {
    turns.push({ turn: { kind: 'user', text: `question ${n}` }, at: at() })
    turns.push({ turn: { kind: 'tool-call', callId: `call_${n}`, name: 'Read', input: { n } }, at: at() })
    turns.push({ turn: { kind: 'tool-result', callId: `call_${n}`, output: `file ${n}` }, at: at() })
    turns.push({
      turn: {
        kind: 'assistant',
        text: `answer ${n}`,
        model: 'gpt-5',
        messageId: `msg_${n}`,
        requestId: `req_${n}`,
        usage,
      },
      at: at(),
    })
  }
  return turns
}

type Found = Awaited<ReturnType<typeof ccusageBin>>
let claudeTool: Found
let codexTool: Found

beforeAll(async () => {
  ;[claudeTool, codexTool] = await Promise.all([ccusageBin('ccusage'), ccusageBin('ccusage-codex')])
}, 240_000)

describe(`usage tools count what recordTurn() recorded (ccusage and @ccusage/codex ${CCUSAGE_VERSION})`, () => {
  it("@ccusage/codex reads a 'codex' profile rollout: input, cached, output and reasoning tokens", async (context) => {
    if ('reason' in codexTool) {
      console.warn(`skipped: ${codexTool.reason}`)
      // Not installable from the registry here (offline): skipped with that reason, never passed.
      context.skip(codexTool.reason)
      return
    }
    const { bin } = codexTool
    await withTempDir(async (codexHome) => {
      // Where Codex keeps rollouts, named as Codex names them.
      const recorder = createRecorder({
        dir: path.join(codexHome, 'sessions', '2026', '02', '01'),
        sessionId: 'rollout-2026-02-01T10-00-00-0198c0de-0000-7000-8000-0000000000aa',
        profile: 'codex',
        profileFields: { cwd: '/home/dev/app', version: '0.60.0' },
      })
      for (const { turn, at } of conversation()) recorder.recordTurn(turn, { timestamp: at })
      await recorder.close()

      const { code, stdout, stderr } = await runCcusageCodex(bin, codexHome, ['daily', '--json', '--offline'])
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) as string })
      const report = JSON.parse(stdout) as {
        daily: Array<{ date: string; models: Record<string, unknown> }>
        totals: Record<string, number>
      }
      expect(report.totals).toMatchObject({
        inputTokens: sum((u) => u.inputTokens),
        cachedInputTokens: sum((u) => u.cacheReadInputTokens),
        outputTokens: sum((u) => u.outputTokens),
        reasoningOutputTokens: sum((u) => u.reasoningOutputTokens),
      })
      expect(report.daily).toHaveLength(1)
      expect(Object.keys(report.daily[0]?.models ?? {})).toEqual(['gpt-5'])
    })
  })

  it("ccusage reads a 'claude-code' profile transcript: input + cache creation + cache read, output", async (context) => {
    if ('reason' in claudeTool) {
      console.warn(`skipped: ${claudeTool.reason}`)
      context.skip(claudeTool.reason)
      return
    }
    const { bin } = claudeTool
    await withTempDir(async (configDir) => {
      const recorder = createRecorder({
        dir: claudeProjectDir(path.join(configDir, 'projects'), '/home/dev/app'),
        profile: 'claude-code',
        profileFields: { cwd: '/home/dev/app', version: '2.1.3' },
      })
      for (const { turn, at } of conversation()) recorder.recordTurn(turn, { timestamp: at })
      await recorder.close()

      const { code, stdout, stderr } = await runCcusage(bin, configDir, ['daily', '--json', '--offline'])
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) as string })
      const report = JSON.parse(stdout) as { totals: Record<string, number> }
      const cacheRead = sum((u) => u.cacheReadInputTokens)
      const cacheCreation = sum((u) => u.cacheCreationInputTokens)
      expect(report.totals).toMatchObject({
        // ccusage's inputTokens is Anthropic's: input without what the cache supplied or stored.
        inputTokens: sum((u) => u.inputTokens) - cacheRead - cacheCreation,
        cacheReadTokens: cacheRead,
        cacheCreationTokens: cacheCreation,
        outputTokens: sum((u) => u.outputTokens),
      })
    })
  })
})
