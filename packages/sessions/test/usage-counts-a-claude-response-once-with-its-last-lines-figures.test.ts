import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readConversation, summarizeUsage, type Usage } from '../src/index.js'
import { withTemp } from './helpers/claude-sessions.js'

/** A content-block line of a Claude Code response, as 2.0 (with requestId) or 2.1 without one writes it. */
const block = (n: number, messageId: string, requestId: string | undefined, output: number, day = '10') =>
  `${JSON.stringify({
    type: 'assistant',
    uuid: `a${n}`,
    parentUuid: n === 1 ? null : `a${n - 1}`,
    sessionId: 's',
    timestamp: `2026-02-${day}T10:00:0${n}.000Z`,
    ...(requestId === undefined ? {} : { requestId }),
    message: {
      id: messageId,
      model: 'claude-opus-4-5-20251101',
      role: 'assistant',
      content: [{ type: 'text', text: `block ${n}` }],
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 4100,
        cache_read_input_tokens: 0,
        output_tokens: output,
      },
    },
  })}\n`

const sum = (usages: readonly Usage[]) =>
  usages.reduce((total, usage) => total + usage.outputTokens + usage.inputTokens, 0)

describe('a Claude Code response written over several content-block lines is one request with the figures of its last line', () => {
  for (const requestId of ['req_1', undefined] as const) {
    it(`${requestId === undefined ? 'without a requestId (the server sent none)' : 'with a requestId'}: counted once, output 88 not 2 (or 92)`, async () => {
      await withTemp(async (dir) => {
        const file = path.join(dir, 's.jsonl')
        await writeFile(
          file,
          block(1, 'msg_1', requestId, 2) +
            block(2, 'msg_1', requestId, 2) +
            block(3, 'msg_1', requestId, 88),
        )
        const summary = await summarizeUsage(file, { timeZone: 'UTC' })
        expect(summary.totals).toMatchObject({
          requests: 1,
          inputTokens: 3 + 4100,
          cacheCreationInputTokens: 4100,
          outputTokens: 88,
        })
        // Dated by its last line, as ccusage dates it.
        expect(summary.sessions[0]).toMatchObject({
          lastTimestamp: '2026-02-10T10:00:03.000Z',
          firstTimestamp: '2026-02-10T10:00:03.000Z',
        })
        // Whoever adds the conversation's usage events up (an export's total) gets the same figures.
        const conversation = await readConversation(file)
        const events = conversation.events.flatMap((e) => (e.kind === 'usage' ? [e.usage] : []))
        expect(sum(events)).toBe(3 + 4100 + 88)
      })
    })
  }

  it('two responses without a requestId stay two requests; a resumed file copying a response does not count it again', async () => {
    await withTemp(async (dir) => {
      const first = path.join(dir, 'a.jsonl')
      const second = path.join(dir, 'b.jsonl')
      await writeFile(
        first,
        block(1, 'msg_1', undefined, 2) + block(2, 'msg_1', undefined, 50) + block(3, 'msg_2', undefined, 7),
      )
      await writeFile(second, block(3, 'msg_2', undefined, 7) + block(4, 'msg_3', undefined, 9, '11'))
      const summary = await summarizeUsage([first, second], { timeZone: 'UTC' })
      expect(summary.sessions.map((s) => [path.basename(s.file), s.requests, s.outputTokens])).toEqual([
        ['a.jsonl', 2, 50 + 7],
        ['b.jsonl', 1, 9],
      ])
      expect(summary.days.map((d) => [d.date, d.outputTokens])).toEqual([
        ['2026-02-10', 57],
        ['2026-02-11', 9],
      ])
    })
  })
})
