import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { summarizeUsage } from '../src/index.js'
import { withTemp } from './helpers/claude-sessions.js'

const line = (timestamp: string, type: string, payload: object) =>
  `${JSON.stringify({ timestamp, type, payload })}\n`
const tokens = (input: number, output: number) => ({
  input_tokens: input,
  cached_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: 0,
  total_tokens: input + output,
})
const rollout = (totals: readonly [number, number][], lasts: readonly [number, number][]) =>
  line('2026-02-01T09:00:00.000Z', 'session_meta', { id: 't', cwd: '/', cli_version: '0.104.0' }) +
  line('2026-02-01T09:00:00.000Z', 'turn_context', { model: 'gpt-5' }) +
  totals
    .map(([input, output], i) =>
      line(`2026-02-01T09:00:0${i + 1}.000Z`, 'event_msg', {
        type: 'token_count',
        info: { total_token_usage: tokens(input, output), last_token_usage: tokens(...lasts[i]!) },
      }),
    )
    .join('')

describe("`summarizeUsage` checks each Codex rollout's requests against Codex's own running total", () => {
  it('agreeing (a continued thread starts from the earlier total): no problem', async () => {
    await withTemp(async (dir) => {
      const file = path.join(dir, 'rollout-a.jsonl')
      await writeFile(
        file,
        rollout(
          [
            [5000, 100],
            [5600, 130],
          ],
          [
            [400, 20],
            [600, 30],
          ],
        ),
      )
      const summary = await summarizeUsage(file)
      expect(summary.totals).toMatchObject({ inputTokens: 1000, outputTokens: 50, requests: 2 })
      expect(summary.problems).toEqual([])
    })
  })

  it('disagreeing: the requests are counted and the difference is named, with the line of the last total', async () => {
    await withTemp(async (dir) => {
      const file = path.join(dir, 'rollout-b.jsonl')
      // The second total says 50 input were added, the request says 600.
      await writeFile(
        file,
        rollout(
          [
            [400, 20],
            [450, 50],
          ],
          [
            [400, 20],
            [600, 30],
          ],
        ),
      )
      const summary = await summarizeUsage(file)
      expect(summary.totals).toMatchObject({ inputTokens: 1000, outputTokens: 50 })
      expect(summary.problems).toEqual([
        {
          file,
          line: 4,
          kind: 'agent-total-differs',
          field: 'total_token_usage',
          value: 'the total grew by input 450, output 50; the requests counted hold input 1000, output 50',
        },
      ])
    })
  })
})
