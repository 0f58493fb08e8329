import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { withTempDir } from '../../recorder/test/helpers/records.js'
import { runInProcess } from './helpers/cli.js'

/** One Claude Code request of this model and usage. */
const claudeLine = (n: number, model: string, usage: object) =>
  `${JSON.stringify({ type: 'assistant', uuid: `a${n}`, sessionId: 's', timestamp: `2026-02-10T10:00:0${n}.000Z`, requestId: `r${n}`, message: { id: `m${n}`, model, role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage } })}\n`

interface Json {
  totals: { costUSD: number | null; unpricedRequests: number; unpricedModels: string[] }
  priceTables: { source: string; date: string }[]
}

describe('`usage` prices requests from a dated price table; a model it does not know costs "unknown", never $0', () => {
  it('a known model is priced per token kind; an unknown one is unknown in the table and null in --json', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's.jsonl')
      // Sonnet 4.5: 1,000 plain input × $3/M + 2,000 cache writes × $3.75/M + 10,000 cache reads × $0.30/M
      // + 500 output × $15/M = $0.021.
      const sonnet = {
        input_tokens: 1000,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 10000,
        output_tokens: 500,
      }
      await writeFile(file, claudeLine(1, 'claude-sonnet-4-5-20250929', sonnet))
      const priced = JSON.parse((await runInProcess('usage', file, '--json')).stdout) as Json
      expect(priced.totals.costUSD).toBeCloseTo(0.021, 12)
      expect(priced.priceTables).toEqual([
        { source: expect.stringContaining('anthropic.com/pricing') as string, date: '2026-11-28' },
      ])

      await writeFile(file, claudeLine(1, 'claude-opus-5-5', { input_tokens: 10, output_tokens: 5 }))
      const unknown = await runInProcess('usage', file)
      expect(unknown.stdout).toMatch(/^total\s+10\s+0\s+0\s+5\s+0\s+15\s+unknown$/m)
      expect(unknown.stdout).toContain('no price for claude-opus-5-5 (1 request): cost unknown')
      const json = JSON.parse((await runInProcess('usage', file, '--json')).stdout) as Json
      expect(json.totals).toMatchObject({
        costUSD: null,
        unpricedRequests: 1,
        unpricedModels: ['claude-opus-5-5'],
      })

      // Both in one session: the known part is priced and the rest said to be unknown.
      await writeFile(
        file,
        claudeLine(1, 'claude-sonnet-4-5-20250929', sonnet) +
          claudeLine(2, 'claude-opus-5-5', { input_tokens: 10, output_tokens: 5 }),
      )
      const mixed = await runInProcess('usage', file)
      expect(mixed.stdout).toMatch(/^total\s.*\s\$0\.0210 \+ unknown$/m)
    })
  })

  it('--prices adds a model (or replaces one) and names its own source and date', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's.jsonl')
      await writeFile(
        file,
        claudeLine(1, 'claude-opus-5-5', { input_tokens: 1_000_000, output_tokens: 100_000 }),
      )
      const prices = path.join(dir, 'prices.json')
      await writeFile(
        prices,
        JSON.stringify({
          source: 'our contract',
          date: '2026-11-01',
          models: { 'claude-opus-5-5': { input: 4e-6, output: 20e-6 } },
        }),
      )
      const result = await runInProcess('usage', file, '--prices', prices, '--json')
      expect(result.code).toBe(0)
      const json = JSON.parse(result.stdout) as Json
      expect(json.totals.costUSD).toBeCloseTo(4 + 2, 10)
      expect(json.priceTables.at(-1)).toEqual({ source: 'our contract', date: '2026-11-01' })
      const table = await runInProcess('usage', file, '--prices', prices)
      expect(table.stdout).toMatch(/^total\s.*\s\$6\.00$/m)
      expect(table.stdout).toContain('our contract (2026-11-01)')
    })
  })

  it.for([
    ['missing', undefined, /cannot read --prices .*missing\.json \(ENOENT\)/],
    ['not JSON', '{', /--prices .* is not JSON/],
    [
      'no date',
      JSON.stringify({ source: 's', models: {} }),
      /Expected `prices\.date` to be the day the prices were read, as YYYY-MM-DD/,
    ],
    [
      'a negative price',
      JSON.stringify({ source: 's', date: '2026-01-01', models: { m: { input: -1, output: 0 } } }),
      /Expected `prices\.models\["m"\]\.input` to be a price per token in US dollars, ≥ 0/,
    ],
  ] as const)('a bad --prices file (%s) exits 2 with the field named', async ([, content, message]) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 's.jsonl')
      await writeFile(file, claudeLine(1, 'claude-opus-5-5', { input_tokens: 1, output_tokens: 1 }))
      const prices = path.join(dir, content === undefined ? 'missing.json' : 'prices.json')
      if (content !== undefined) await writeFile(prices, content)
      const result = await runInProcess('usage', file, '--prices', prices)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(message)
      expect(result.stdout).toBe('')
    })
  })
})
