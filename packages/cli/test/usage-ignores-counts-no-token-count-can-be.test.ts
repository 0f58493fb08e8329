import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess } from './helpers/cli.js'
import { withTempDir } from '../../recorder/test/helpers/records.js'

/** A Claude Code assistant line with this `message.usage`, as a damaged or hand-edited file may hold. */
function claudeLine(n: number, usage: string): string {
  return (
    `{"parentUuid":null,"sessionId":"s","type":"assistant","uuid":"a${n}","timestamp":"2026-02-10T10:00:0${n}.000Z",` +
    `"requestId":"r${n}","message":{"id":"m${n}","role":"assistant","model":"claude-x","content":[{"type":"text","text":"hi"}],` +
    `"usage":${usage}}}\n`
  )
}

describe('`usage` counts only what a token count can be: a whole number from 0 to 2^53 - 1', () => {
  it('a count of 1e308, 1e999 (Infinity once parsed), 2^60 or -100 adds 0, and the totals stay exact numbers', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'session.jsonl')
      await writeFile(
        file,
        claudeLine(1, '{"input_tokens":100,"output_tokens":50}') +
          claudeLine(2, '{"input_tokens":1e308,"output_tokens":1e308}') +
          claudeLine(3, '{"input_tokens":1e999,"output_tokens":7}') +
          claudeLine(4, '{"input_tokens":1152921504606846976,"output_tokens":-100}'),
      )
      const result = await runInProcess('usage', file, '--json')
      expect(result.code).toBe(0)
      const { totals, problems } = JSON.parse(result.stdout) as {
        totals: Record<string, unknown>
        problems: { line: number; field: string; value: string }[]
      }
      expect(totals).toMatchObject({ inputTokens: 100, outputTokens: 57, totalTokens: 157, requests: 4 })
      // Each one is named, never dropped without a word.
      expect(problems.map((p) => [p.line, p.field, p.value])).toEqual([
        [2, 'message.usage.input_tokens', '1e+308'],
        [2, 'message.usage.output_tokens', '1e+308'],
        [3, 'message.usage.input_tokens', 'Infinity'],
        [4, 'message.usage.input_tokens', '1152921504606847000'],
        [4, 'message.usage.output_tokens', '-100'],
      ])
      const table = await runInProcess('usage', file)
      expect(table.stdout).not.toMatch(/∞|NaN|e\+/)
      expect(table.stdout).toMatch(/^total\s+100\s+0\s+0\s+57\s+0\s+157\s+unknown$/m)
    })
  })
})
