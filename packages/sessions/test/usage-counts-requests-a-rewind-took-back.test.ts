import { writeFile } from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogSessions, exportSession, readConversation, summarizeUsage } from '@sessiontape/sessions'

// A Gemini CLI session where the user rewound past an answer (Gemini's /rewind writes `$rewindTo`): the
// answer is gone from the conversation, but its model request was made and its tokens were spent.
const tokens = (input: number, output: number) => ({
  input,
  output,
  cached: 0,
  thoughts: 0,
  tool: 0,
  total: input + output,
})
const LINES = [
  { sessionId: 'gem-rw', projectHash: 'h', startTime: '2026-05-02T10:00:00.000Z' },
  { id: 'u1', timestamp: '2026-05-02T10:00:01.000Z', type: 'user', content: 'first question' },
  {
    id: 'g1',
    timestamp: '2026-05-02T10:00:02.000Z',
    type: 'gemini',
    content: 'kept answer',
    model: 'gemini-2.5-pro',
    tokens: tokens(100, 10),
  },
  { id: 'u2', timestamp: '2026-05-02T10:00:03.000Z', type: 'user', content: 'second question' },
  {
    id: 'g2',
    timestamp: '2026-05-02T10:00:04.000Z',
    type: 'gemini',
    content: 'rewound answer',
    model: 'gemini-2.5-pro',
    tokens: tokens(200, 20),
  },
  { $rewindTo: 'u2' },
  { id: 'u3', timestamp: '2026-05-02T10:00:05.000Z', type: 'user', content: 'asked again' },
  {
    id: 'g3',
    timestamp: '2026-05-02T10:00:06.000Z',
    type: 'gemini',
    content: 'new answer',
    model: 'gemini-2.5-pro',
    tokens: tokens(300, 30),
  },
]

let dir = ''
let file = ''
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sessiontape-rewind-'))
  file = path.join(dir, 'session-2026-05-02T10-00-gemrw000.jsonl')
  await writeFile(file, LINES.map((line) => `${JSON.stringify(line)}\n`).join(''))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('usage counts the requests of Gemini messages a rewind took back', () => {
  it('the rewound turns are kept, marked takenBack (off the active branch), their usage too', async () => {
    const conversation = await readConversation(file)
    const texts = (takenBack: boolean) =>
      conversation.events.flatMap((e) =>
        'text' in e && (e.takenBack === true) === takenBack ? [e.text] : [],
      )
    expect(texts(false)).toEqual(['first question', 'kept answer', 'asked again', 'new answer'])
    expect(texts(true)).toEqual(['second question', 'rewound answer'])
    const usage = conversation.events.filter((e) => e.kind === 'usage')
    expect(usage.map((e) => [e.usage.totalTokens, e.takenBack ?? false, e.line, e.id])).toEqual([
      [110, false, 3, 'g1#1'],
      [330, false, 8, 'g3#1'],
      [220, true, 5, 'L5@g2#1'],
    ])
  })

  it('summarizeUsage adds them to the session, the day and the model', async () => {
    const summary = await summarizeUsage(dir, { timeZone: 'UTC' })
    expect(summary.totals).toMatchObject({
      inputTokens: 600,
      outputTokens: 60,
      totalTokens: 660,
      requests: 3,
    })
    expect(summary.sessions).toMatchObject([
      {
        sessionId: 'gem-rw',
        totalTokens: 660,
        requests: 3,
        // By time: the rewound answer (10:00:04) comes last in the stream, but is neither first nor last.
        firstTimestamp: '2026-05-02T10:00:02.000Z',
        lastTimestamp: '2026-05-02T10:00:06.000Z',
      },
    ])
    expect(summary.days).toMatchObject([{ date: '2026-05-02', totalTokens: 660 }])
  })

  it('the catalog (`list`) counts them in the usage of the session', async () => {
    const cacheDir = path.join(dir, 'cache')
    const [session] = await catalogSessions({ dirs: [dir], cacheDir })
    expect(session).toMatchObject({ sessionId: 'gem-rw', usage: { totalTokens: 660 } })
  })

  it('an export counts them in the total, in no turn; --branch all shows the rewound turn, the active branch not', async () => {
    const { text: active } = await exportSession(file, { format: 'md' })
    expect(active).toMatch(/^- Tokens: 400 in · 40 out · 440 total$/m)
    const { text } = await exportSession(file, { format: 'md', branch: 'all' })
    expect(text).toMatch(/^- Tokens: 600 in · 60 out · 660 total$/m)
    const perTurn = [...text!.matchAll(/^_Usage: (.*)_$/gm)].map((m) => m[1])
    expect(perTurn).toEqual(['100 in · 10 out · 110 total', '300 in · 30 out · 330 total'])
    expect(active).not.toContain('rewound answer')
    expect(text!.split('rewound answer')).toHaveLength(2)
  })
})
