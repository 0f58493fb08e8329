import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readConversation } from '@sessiontape/sessions'
import { samplesOf } from './helpers/samples.js'

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'qwen-code-session.jsonl')

describe('a Qwen Code session as a conversation', () => {
  it('maps message parts, toolCallResult, usageMetadata and system subtypes onto typed events', async () => {
    const conversation = await readConversation(fixture)
    expect(conversation).toMatchObject({
      format: 'qwen-code',
      agent: 'qwen-code',
      sessionId: 'qwen-0001',
      title: 'Routes',
      problems: [],
    })
    expect(conversation.events.map(({ raw: _raw, timestamp: _t, ...rest }) => rest)).toEqual([
      {
        kind: 'session',
        agent: 'qwen-code',
        sessionId: 'qwen-0001',
        agentVersion: '0.24.7',
        cwd: '/srv/api',
        gitBranch: 'dev',
        id: 'L1@session',
        line: 1,
      },
      { kind: 'user', text: 'list the routes', id: 'q-1', parentId: null, line: 1 },
      { kind: 'thinking', text: 'Grep for router calls.', id: 'q-2', parentId: 'q-1', line: 2 },
      {
        kind: 'assistant',
        text: 'Searching.',
        model: 'qwen3-coder-plus',
        id: 'q-2#1',
        parentId: 'q-2',
        line: 2,
      },
      {
        kind: 'tool-call',
        callId: 'call_1',
        name: 'grep',
        input: { pattern: 'router\\.' },
        id: 'q-2#2',
        parentId: 'q-2#1',
        line: 2,
      },
      {
        kind: 'usage',
        model: 'qwen3-coder-plus',
        // prompt 1000 (600 of it cached) + tool-use prompt 5; candidates 40 + thoughts 10
        usage: {
          inputTokens: 1005,
          cacheReadInputTokens: 600,
          cacheCreationInputTokens: 0,
          outputTokens: 50,
          reasoningOutputTokens: 10,
          totalTokens: 1055,
        },
        id: 'q-2#3',
        parentId: 'q-2#2',
        line: 2,
      },
      {
        kind: 'tool-result',
        callId: 'call_1',
        output: '1 match',
        isError: false,
        id: 'q-3',
        parentId: 'q-2',
        line: 3,
      },
      {
        kind: 'assistant',
        text: 'One route file: src/routes.ts.',
        model: 'qwen3-coder-plus',
        id: 'q-4',
        parentId: 'q-3',
        line: 4,
      },
      {
        kind: 'usage',
        model: 'qwen3-coder-plus',
        usage: {
          inputTokens: 1100,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
          outputTokens: 12,
          reasoningOutputTokens: 0,
          totalTokens: 1112,
        },
        id: 'q-4#1',
        parentId: 'q-4',
        line: 4,
      },
      { kind: 'title', title: 'Routes', source: 'generated', id: 'q-5', parentId: 'q-4', line: 5 },
      { kind: 'compaction', id: 'q-6', parentId: 'q-5', line: 6 },
    ])
    expect(conversation.activeBranch.at(-1)).toBe('q-6')
  })
})

const samples = samplesOf('qwen-code')
describe.skipIf(samples.length === 0)('Qwen Code samples (../shared/samples)', () => {
  it.for(samples)('reads %s with every record an event', async (file) => {
    const conversation = await readConversation(file)
    expect(conversation.format).toBe('qwen-code')
    expect(conversation.events.filter((e) => e.kind === 'user').length).toBeGreaterThan(0)
  })
})
