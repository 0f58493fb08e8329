import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readConversation, type ConversationEvent } from '@sessiontape/sessions'
import { samplesOf } from './helpers/samples.js'

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'claude-code-session.jsonl',
)
const U = (n: number) => `11111111-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`

/** The events without their raw record, for comparing shapes. */
function shapes(events: readonly ConversationEvent[]) {
  return events.map(({ raw: _raw, ...rest }) => rest)
}

describe('a Claude Code session as a conversation', () => {
  it('maps content blocks, tool results, sidechains, titles and compaction onto typed events', async () => {
    const conversation = await readConversation(fixture)
    expect(conversation).toMatchObject({
      format: 'claude-code',
      agent: 'claude-code',
      sessionId: 'c0ffee00-0000-4000-8000-000000000001',
      title: 'Fix the login test', // custom-title beats ai-title and summary
      problems: [],
    })
    const kinds = conversation.events.map((e) => e.kind)
    expect(kinds).toEqual([
      'session',
      'user',
      'thinking',
      'usage', // the response's usage, counted on its first record only
      'assistant',
      'tool-call',
      'tool-result',
      'assistant', // sidechain
      'usage',
      'session', // the git branch changed
      'assistant',
      'usage',
      'title',
      'title',
      'title',
      'compaction',
      'compaction',
      'user',
    ])
    const byKind = <K extends ConversationEvent['kind']>(kind: K) =>
      conversation.events.filter((e): e is Extract<ConversationEvent, { kind: K }> => e.kind === kind)
    expect(shapes(byKind('session'))).toEqual([
      {
        kind: 'session',
        agent: 'claude-code',
        sessionId: 'c0ffee00-0000-4000-8000-000000000001',
        agentVersion: '2.0.14',
        cwd: '/home/dev/app',
        gitBranch: 'main',
        id: 'L1@session',
        timestamp: '2026-03-02T09:00:00.000Z',
        line: 1,
      },
      expect.objectContaining({ gitBranch: 'fix-login', line: 7 }),
    ])
    expect(byKind('tool-call')[0]).toMatchObject({
      callId: 'toolu_1',
      name: 'Read',
      input: { file_path: 'test/login.test.ts' },
      id: U(4),
      parentId: U(3),
    })
    expect(byKind('tool-result')[0]).toMatchObject({
      callId: 'toolu_1',
      output: 'ENOENT: no such file',
      isError: true,
    })
    expect(byKind('assistant')[1]).toMatchObject({
      sidechain: { agentId: 'a1b2c3' },
      model: 'claude-haiku-4-5-20251001',
    })
    expect(byKind('assistant')[2]).not.toHaveProperty('sidechain')
    expect(shapes(byKind('usage'))[0]).toMatchObject({
      model: 'claude-sonnet-4-5-20250929',
      requestKey: 'msg_A:req_A',
      usage: {
        inputTokens: 6010,
        cacheReadInputTokens: 5000,
        cacheCreationInputTokens: 1000,
        outputTokens: 200,
        reasoningOutputTokens: 0,
        totalTokens: 6210,
      },
      id: `${U(2)}#1`,
      parentId: U(2),
    })
    expect(byKind('title').map((e) => [e.title, e.source, e.id])).toEqual([
      ['Login test path', 'summary', 'L8'],
      ['Fix the login test', 'set', 'L9'],
      ['Login test investigation', 'generated', 'L10'],
    ])
    expect(byKind('compaction').map((e) => e.summary)).toEqual([
      undefined,
      'This session is being continued. Summary: the login test moved.',
    ])
    // Every event keeps the line it came from, as written.
    const last = conversation.events.at(-1)!
    expect(last.raw).toMatchObject({ uuid: U(10), message: { content: [{ text: 'Thanks, run it now.' }] } })
  })

  it('follows the active branch across the compaction and leaves the sidechain off it', async () => {
    const conversation = await readConversation(fixture)
    expect(conversation.activeBranch).toEqual([
      U(1),
      U(2),
      `${U(2)}#1`,
      U(3),
      U(4),
      U(5),
      U(7),
      `${U(7)}#1`,
      U(8),
      U(9),
      U(10),
    ])
  })
})

const samples = samplesOf('claude-code')
describe.skipIf(samples.length === 0)('Claude Code samples (../shared/samples)', () => {
  it.for(samples)('reads %s: every record an event, tool calls paired with their results', async (file) => {
    const conversation = await readConversation(file)
    expect(conversation.format).toBe('claude-code')
    expect(conversation.events.length).toBeGreaterThan(0)
    const calls = new Set(conversation.events.flatMap((e) => (e.kind === 'tool-call' ? [e.callId] : [])))
    for (const event of conversation.events) {
      if (event.kind === 'tool-result') expect(calls.has(event.callId), event.callId).toBe(true)
    }
  })
})
