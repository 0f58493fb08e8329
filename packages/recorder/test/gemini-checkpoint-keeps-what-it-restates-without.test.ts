import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSession } from '../src/index.js'
import { geminiJsonlLines } from '../src/read/formats/gemini-lines.js'
import { withTempDir } from './helpers/records.js'

// `gemini --resume` (0.61) appends a `$set.messages` checkpoint restating the first run from the model's
// history: each message without its `tokens`, `model`, `thoughts` and `toolCalls`.
const tokens = { input: 90, output: 10, cached: 5, thoughts: 3, tool: 0, total: 100 }
const call = { id: 'c1', name: 'run_shell_command', args: { command: 'ls' }, status: 'success' }
const LINES = [
  { sessionId: 's', projectHash: 'h', startTime: '2026-11-28T17:39:46.832Z' },
  { id: 'u1', type: 'user', content: [{ text: 'list' }] },
  { id: 'g1', type: 'gemini', content: 'Listing.', model: 'm', tokens },
  { id: 'g1', type: 'gemini', content: 'Listing.', model: 'm', tokens, toolCalls: [call] },
  {
    $set: {
      messages: [
        { id: 'u1', type: 'user', content: [{ text: 'list' }] },
        {
          id: 'g1',
          type: 'gemini',
          content: [{ text: 'Listing.' }, { functionCall: { id: 'c1', name: 'run_shell_command' } }],
        },
        { id: 'g1_response', type: 'user', content: [{ functionResponse: { id: 'c1' } }] },
      ],
    },
  },
  { id: 'u2', type: 'user', content: [{ text: 'again' }] },
]

async function withSession<T>(lines: readonly unknown[], use: (file: string) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'session-x.jsonl')
    await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    return use(file)
  })
}

describe('a Gemini checkpoint that restates a message without its tokens and tool calls', () => {
  it('keeps them from the message before: its content as restated, its tokens, model and calls as recorded', async () => {
    await withSession(LINES, async (file) => {
      const session = await readSession(file, { format: 'gemini-cli' })
      expect(session.problems).toEqual([])
      expect(session.records.map((r) => r.uuid)).toEqual(['u1', 'g1', 'g1_response', 'u2'])
      const g1 = session.records[1] as unknown as Record<string, unknown>
      expect(g1.content).toEqual([
        { text: 'Listing.' },
        { functionCall: { id: 'c1', name: 'run_shell_command' } },
      ])
      expect([g1.tokens, g1.model, g1.toolCalls]).toEqual([tokens, 'm', [call]])
      // Nothing taken back: the message is in the conversation, counted there once.
      expect(session.takenBack).toEqual([])
    })
  })

  it('a later line that states tokens of its own wins over the carried ones', async () => {
    const newer = { ...tokens, input: 1, total: 11 }
    const lines = [...LINES, { id: 'g1', type: 'gemini', content: 'redone', tokens: newer }]
    await withSession(lines, async (file) => {
      const session = await readSession(file, { format: 'gemini-cli' })
      const g1 = session.records.find((r) => r.uuid === 'g1') as unknown as Record<string, unknown>
      expect([g1.content, g1.tokens, g1.toolCalls]).toEqual(['redone', newer, [call]])
    })
  })

  it('a message taken back is kept whole, and shrinks to its token counts when the bound needs room', async () => {
    const long = 'x'.repeat(3000)
    const lines = [
      { sessionId: 's', projectHash: 'h' },
      { id: 'u1', type: 'user', content: 'q' },
      { id: 'g1', type: 'gemini', content: long, model: 'm', tokens },
      { $rewindTo: 'u1' },
    ]
    const takenBack = async (all: readonly unknown[]) =>
      withSession(all, async (file) => {
        const out: { value: unknown; problems: unknown[] }[] = []
        for await (const batch of geminiJsonlLines(file, { maxReplayChars: 8000 })) {
          for (const entry of batch) out.push({ value: entry.takenBack?.[0], problems: [...entry.problems] })
        }
        return {
          values: out.flatMap((e) => (e.value === undefined ? [] : [e.value])),
          problems: out.flatMap((e) => e.problems),
        }
      })
    const whole = await takenBack(lines)
    expect(whole).toEqual({ values: [lines[1], lines[2]], problems: [] })
    // Two more long messages do not fit beside the rewound one: it gives its text up, u1 (no tokens) goes.
    const crowded = await takenBack([
      ...lines,
      { id: 'u2', type: 'user', content: long },
      { id: 'g2', type: 'gemini', content: long },
    ])
    expect(crowded).toEqual({
      values: [{ id: 'g1', type: 'gemini', model: 'm', tokens }],
      problems: [],
    })
  })
})
