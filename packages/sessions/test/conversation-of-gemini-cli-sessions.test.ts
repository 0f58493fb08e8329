import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readConversation } from '@sessiontape/sessions'
import { samplesOf } from './helpers/samples.js'

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'gemini-cli-session.jsonl',
)

describe('a Gemini CLI session as a conversation', () => {
  it('maps the replayed messages (thoughts, tool calls with results, tokens) and the header onto typed events', async () => {
    const conversation = await readConversation(fixture)
    expect(conversation).toMatchObject({
      format: 'gemini-cli',
      agent: 'gemini-cli',
      sessionId: 'gem-0001',
      title: 'Inspect package.json',
      problems: [],
    })
    expect(conversation.events.map(({ raw: _raw, timestamp: _t, ...rest }) => rest)).toEqual([
      { kind: 'session', agent: 'gemini-cli', sessionId: 'gem-0001', id: 'L1@session', line: 1 },
      { kind: 'title', title: 'Inspect package.json', source: 'summary', id: 'L5', line: 5 },
      { kind: 'other', type: '$rewindTo', id: 'L8', line: 8 },
      // The replay: g-2 once, in its last state; g-3 and g-4 rewound away (they come last, marked).
      { kind: 'user', text: 'read package.json', id: 'g-1', parentId: null, line: 2 },
      { kind: 'thinking', text: 'Plan: Open the file.', id: 'g-2', parentId: 'g-1', line: 4 },
      {
        kind: 'assistant',
        text: 'It is an ESM package.',
        model: 'gemini-2.5-pro',
        id: 'g-2#1',
        parentId: 'g-2',
        line: 4,
      },
      {
        kind: 'tool-call',
        callId: 'read_file-1',
        name: 'read_file',
        input: { path: 'package.json' },
        id: 'g-2#2',
        parentId: 'g-2#1',
        line: 4,
      },
      {
        kind: 'tool-result',
        callId: 'read_file-1',
        output: '{"type":"module"}',
        isError: false,
        id: 'g-2#3',
        parentId: 'g-2#2',
        line: 4,
      },
      {
        kind: 'tool-call',
        callId: 'shell-2',
        name: 'run_shell_command',
        input: { command: 'false' },
        id: 'g-2#4',
        parentId: 'g-2#3',
        line: 4,
      },
      {
        kind: 'tool-result',
        callId: 'shell-2',
        output: 'exit 1',
        isError: true,
        id: 'g-2#5',
        parentId: 'g-2#4',
        line: 4,
      },
      {
        kind: 'usage',
        model: 'gemini-2.5-pro',
        // input 2000 (1500 cached) + tool 10; output 30 + thoughts 20
        usage: {
          inputTokens: 2010,
          cacheReadInputTokens: 1500,
          cacheCreationInputTokens: 0,
          outputTokens: 50,
          reasoningOutputTokens: 20,
          totalTokens: 2060,
        },
        id: 'g-2#6',
        parentId: 'g-2#5',
        line: 4,
      },
      { kind: 'user', text: 'thanks', id: 'g-5', parentId: 'g-2', line: 9 },
      // What the rewind took back, kept and marked: shown only with every branch.
      { kind: 'user', text: 'and the lockfile?', id: 'L6@g-3', parentId: null, line: 6, takenBack: true },
      {
        kind: 'marker',
        marker: 'error',
        text: 'Quota exceeded',
        id: 'L7@g-4',
        parentId: null,
        line: 7,
        takenBack: true,
      },
    ])
    expect(conversation.activeBranch).toEqual([
      'g-1',
      'g-2',
      'g-2#1',
      'g-2#2',
      'g-2#3',
      'g-2#4',
      'g-2#5',
      'g-2#6',
      'g-5',
    ])
  })
})

const samples = samplesOf('gemini-cli')
describe.skipIf(samples.length === 0)('Gemini CLI samples (../shared/samples)', () => {
  it.for(samples)('reads %s', async (file) => {
    const conversation = await readConversation(file)
    expect(conversation.agent).toBe('gemini-cli')
    expect(conversation.events.some((e) => e.kind === 'user')).toBe(true)
  })
})
