import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createRecorder } from '@sessiontape/recorder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ccusageBin, CCUSAGE_VERSION, runCcusageCodex } from '../../recorder/test/helpers/ccusage.js'
import { samplesOf } from '../../sessions/test/helpers/samples.js'
import { runInProcess } from './helpers/cli.js'

const ccusageCodex = await ccusageBin('ccusage-codex')

/** One rollout line as Codex writes it. */
const line = (timestamp: string, type: string, payload: object): string =>
  JSON.stringify({ timestamp, type, payload })
const tokens = (input: number, cached: number, output: number, reasoning: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
  reasoning_output_tokens: reasoning,
  total_tokens: input + output,
})

let codexHome: string
beforeAll(async () => {
  codexHome = await mkdtemp(path.join(os.tmpdir(), 'cli-usage-codex-'))
  const day1 = path.join(codexHome, 'sessions', '2026', '02', '01')
  const day2 = path.join(codexHome, 'sessions', '2026', '02', '02')
  await mkdir(day1, { recursive: true })
  await mkdir(day2, { recursive: true })
  // A rollout in Codex's own shape: running totals with the last request's counts, a model change, an event
  // with totals only (older versions: its usage is the growth since the previous event), a zero event.
  await writeFile(
    path.join(day1, 'rollout-2026-02-01T09-00-00-0198c0de-0000-7000-8000-0000000000b1.jsonl'),
    [
      line('2026-02-01T09:00:00.000Z', 'session_meta', {
        id: '0198c0de-0000-7000-8000-0000000000b1',
        timestamp: '2026-02-01T09:00:00.000Z',
        cwd: '/home/dev/app',
        originator: 'codex_cli_rs',
        cli_version: '0.60.0',
      }),
      line('2026-02-01T09:00:01.000Z', 'turn_context', { cwd: '/home/dev/app', model: 'gpt-5' }),
      line('2026-02-01T09:00:02.000Z', 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'run the tests' }],
      }),
      line('2026-02-01T09:00:05.000Z', 'event_msg', {
        type: 'token_count',
        info: { total_token_usage: tokens(1200, 200, 300, 40), last_token_usage: tokens(1200, 200, 300, 40) },
      }),
      line('2026-02-01T09:00:06.000Z', 'turn_context', { cwd: '/home/dev/app', model: 'gpt-5-codex' }),
      line('2026-02-01T09:00:09.000Z', 'event_msg', {
        type: 'token_count',
        info: { total_token_usage: tokens(2000, 500, 450, 60) },
      }),
      line('2026-02-01T09:00:10.000Z', 'event_msg', { type: 'token_count', info: null }),
    ].join('\n') + '\n',
  )
  // A rollout written with the recorder's `codex` profile (our envelope on every line), on the next day.
  const recorder = createRecorder({
    dir: day2,
    sessionId: 'rollout-2026-02-02T10-00-00-0198c0de-0000-7000-8000-0000000000b2',
    profile: 'codex',
    profileFields: { cwd: '/home/dev/app', version: '0.60.0' },
  })
  recorder.recordTurn({ kind: 'user', text: 'again' }, { timestamp: '2026-02-02T10:00:00Z' })
  recorder.recordTurn(
    {
      kind: 'assistant',
      text: 'done',
      model: 'gpt-5',
      usage: { inputTokens: 900, cacheReadInputTokens: 100, outputTokens: 80, reasoningOutputTokens: 20 },
    },
    { timestamp: '2026-02-02T10:00:05Z' },
  )
  await recorder.close()
  // Other tools' Codex test data too, when it is beside the repository (../shared/samples).
  const samples = samplesOf('codex-cli').filter((file) => file.endsWith('.jsonl'))
  if (samples.length > 0) {
    const dir = path.join(codexHome, 'sessions', 'samples')
    await mkdir(dir, { recursive: true })
    for (const file of samples) await cp(file, path.join(dir, path.basename(file)))
  }
})
afterAll(async () => {
  await rm(codexHome, { recursive: true, force: true })
})

interface CodexTotals {
  inputTokens: number
  cachedInputTokens: number
  outputTokens: number
  reasoningOutputTokens: number
}

describe(`sessiontape usage equals @ccusage/codex ${CCUSAGE_VERSION} on Codex rollouts`, () => {
  it('the same input, cached input, output and reasoning tokens in total', async (context) => {
    if ('reason' in ccusageCodex) {
      console.warn(`skipped: ${ccusageCodex.reason}`)
      // Not installable from the registry here (offline): skipped with that reason, never passed.
      context.skip(ccusageCodex.reason)
      return
    }
    const theirs = await runCcusageCodex(ccusageCodex.bin, codexHome, ['daily', '--json', '--offline'])
    expect(theirs.code).toBe(0)
    const expected = (JSON.parse(theirs.stdout) as { totals: CodexTotals }).totals
    const ours = await runInProcess('usage', '--json', path.join(codexHome, 'sessions'))
    expect(ours.code).toBe(0)
    const totals = (JSON.parse(ours.stdout) as { totals: Record<string, number> }).totals
    expect({
      inputTokens: totals.inputTokens,
      cachedInputTokens: totals.cacheReadInputTokens,
      outputTokens: totals.outputTokens,
      reasoningOutputTokens: totals.reasoningOutputTokens,
    }).toEqual({
      inputTokens: expected.inputTokens,
      cachedInputTokens: expected.cachedInputTokens,
      outputTokens: expected.outputTokens,
      reasoningOutputTokens: expected.reasoningOutputTokens,
    })
    // Our own fixtures alone: 1200 + 800 (growth of the totals) + 900 input.
    expect(totals.inputTokens).toBeGreaterThanOrEqual(2900)
  })
})
