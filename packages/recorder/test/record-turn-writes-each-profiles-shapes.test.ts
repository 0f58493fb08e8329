import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createRecorder, InvalidRecordError, type Turn, type WriterProfile } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

/** One of every kind of turn, as an agent would record a short exchange. */
const TURNS: readonly Turn[] = [
  { kind: 'title', title: 'Fix the login bug' },
  { kind: 'user', text: 'fix the login bug' },
  { kind: 'thinking', text: 'read auth.ts first' },
  { kind: 'tool-call', callId: 'call_1', name: 'Read', input: { file_path: 'src/auth.ts' } },
  { kind: 'tool-result', callId: 'call_1', output: 'export function login() {}', isError: false },
  {
    kind: 'assistant',
    text: 'Fixed.',
    model: 'model-a',
    messageId: 'msg_1',
    requestId: 'req_1',
    usage: { inputTokens: 1650, cacheReadInputTokens: 400, cacheCreationInputTokens: 50, outputTokens: 300 },
  },
]

type Line = Record<string, unknown>

async function linesOf(profile: WriterProfile, turns: readonly Turn[] = TURNS): Promise<Line[]> {
  return withTempDir(async (dir) => {
    const recorder = createRecorder({
      dir,
      profile,
      ...(profile === 'sessiontape' ? {} : { profileFields: { cwd: '/home/dev/app', version: '1.2.3' } }),
    })
    for (const turn of turns) recorder.recordTurn(turn)
    await recorder.close()
    const text = await readFile(recorder.filePath, 'utf8')
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line)
  })
}

/** Each line without its envelope (uuid, parentUuid, sessionId, timestamp, v) and the profile's fields. */
function shapes(lines: readonly Line[]): Line[] {
  return lines.map((line) => {
    const rest: Line = {}
    for (const [key, value] of Object.entries(line)) {
      if (['uuid', 'parentUuid', 'sessionId', 'timestamp', 'v', 'cwd', 'version', 'gitBranch'].includes(key))
        continue
      if (['userType', 'isSidechain'].includes(key)) continue
      rest[key] = value
    }
    return rest
  })
}

describe('recordTurn() writes each profile its own shapes', () => {
  it("'sessiontape': one record per turn, usage normalized", async () => {
    expect(shapes(await linesOf('sessiontape'))).toEqual([
      { type: 'title', title: 'Fix the login bug' },
      { type: 'user', text: 'fix the login bug' },
      { type: 'thinking', text: 'read auth.ts first' },
      { type: 'tool_call', callId: 'call_1', name: 'Read', input: { file_path: 'src/auth.ts' } },
      { type: 'tool_result', callId: 'call_1', output: 'export function login() {}', isError: false },
      {
        type: 'assistant',
        text: 'Fixed.',
        model: 'model-a',
        usage: {
          inputTokens: 1650,
          cacheReadInputTokens: 400,
          cacheCreationInputTokens: 50,
          outputTokens: 300,
          reasoningOutputTokens: 0,
        },
        messageId: 'msg_1',
        requestId: 'req_1',
      },
    ])
  })

  it("'claude-code': Anthropic content blocks, input split from the cache, a custom-title too", async () => {
    const lines = await linesOf('claude-code')
    expect(shapes(lines)).toEqual([
      { type: 'title', title: 'Fix the login bug' },
      { type: 'custom-title', customTitle: 'Fix the login bug' },
      { type: 'user', message: { role: 'user', content: 'fix the login bug' } },
      {
        type: 'assistant',
        message: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'read auth.ts first', signature: '' }],
          stop_reason: null,
          stop_sequence: null,
        },
      },
      {
        type: 'assistant',
        message: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'src/auth.ts' } }],
          stop_reason: null,
          stop_sequence: null,
        },
      },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'call_1',
              content: 'export function login() {}',
              is_error: false,
            },
          ],
        },
      },
      {
        type: 'assistant',
        requestId: 'req_1',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'model-a',
          content: [{ type: 'text', text: 'Fixed.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: 1200,
            cache_creation_input_tokens: 50,
            cache_read_input_tokens: 400,
            output_tokens: 300,
          },
        },
      },
    ])
    // The profile's fields stay on every line, and the chain runs through the conversation only.
    expect(lines.every((line) => line.cwd === '/home/dev/app' && line.userType === 'external')).toBe(true)
    expect(lines[0]?.parentUuid).toBeNull()
    expect(lines[1]?.parentUuid).toBeNull()
    expect(lines[3]?.parentUuid).toBe(lines[2]?.uuid)
  })

  it("'qwen-code': Gemini API parts, usageMetadata with thoughts apart, the call's name on its result", async () => {
    const lines = await linesOf('qwen-code')
    expect(shapes(lines)).toEqual([
      { type: 'title', title: 'Fix the login bug' },
      { type: 'user', message: { role: 'user', parts: [{ text: 'fix the login bug' }] } },
      {
        type: 'assistant',
        message: { role: 'model', parts: [{ text: 'read auth.ts first', thought: true }] },
      },
      {
        type: 'assistant',
        message: {
          role: 'model',
          parts: [{ functionCall: { id: 'call_1', name: 'Read', args: { file_path: 'src/auth.ts' } } }],
        },
      },
      {
        type: 'tool_result',
        message: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_1',
                name: 'Read',
                response: { output: 'export function login() {}' },
              },
            },
          ],
        },
        toolCallResult: { callId: 'call_1', status: 'success', resultDisplay: 'export function login() {}' },
      },
      {
        type: 'assistant',
        model: 'model-a',
        usageMetadata: {
          promptTokenCount: 1650,
          cachedContentTokenCount: 400,
          candidatesTokenCount: 300,
          thoughtsTokenCount: 0,
          totalTokenCount: 1950,
        },
        message: { role: 'model', parts: [{ text: 'Fixed.' }] },
      },
    ])
  })

  it("'codex': session_meta first, rollout lines, a turn_context when the model changes, running totals", async () => {
    const second: Turn = {
      kind: 'assistant',
      text: 'Also tested.',
      model: 'model-a',
      usage: { inputTokens: 100, cacheReadInputTokens: 0, outputTokens: 40, reasoningOutputTokens: 10 },
    }
    const lines = await linesOf('codex', [...TURNS, second])
    const [meta, ...rest] = shapes(lines)
    expect(meta).toEqual({
      type: 'session_meta',
      payload: {
        id: lines[0]?.sessionId,
        timestamp: lines[0]?.timestamp,
        cwd: '/home/dev/app',
        originator: 'sessiontape',
        cli_version: '1.2.3',
        source: 'cli',
      },
    })
    const usage = (input: number, cached: number, output: number, reasoning: number) => ({
      input_tokens: input,
      cached_input_tokens: cached,
      output_tokens: output,
      reasoning_output_tokens: reasoning,
      total_tokens: input + output,
    })
    expect(rest).toEqual([
      { type: 'title', title: 'Fix the login bug' },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'fix the login bug' }],
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'read auth.ts first' }],
          content: null,
          encrypted_content: null,
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'Read',
          arguments: '{"file_path":"src/auth.ts"}',
          call_id: 'call_1',
        },
      },
      {
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'call_1', output: 'export function login() {}' },
      },
      { type: 'turn_context', payload: { cwd: '/home/dev/app', model: 'model-a' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] },
      },
      {
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            total_token_usage: usage(1650, 400, 300, 0),
            last_token_usage: usage(1650, 400, 300, 0),
            model_context_window: null,
          },
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Also tested.' }],
        },
      },
      {
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            total_token_usage: usage(1750, 400, 340, 10),
            last_token_usage: usage(100, 0, 40, 10),
            model_context_window: null,
          },
        },
      },
    ])
  })

  it('a resumed codex session does not write a second session_meta', async () => {
    await withTempDir(async (dir) => {
      const first = createRecorder({
        dir,
        sessionId: 'rollout-2026-02-01T10-00-00-0198c0de-0000-7000-8000-000000000001',
        profile: 'codex',
      })
      first.recordTurn({ kind: 'user', text: 'one' })
      await first.close()
      const again = createRecorder({ dir, sessionId: first.sessionId, profile: 'codex', resume: true })
      again.recordTurn({ kind: 'user', text: 'two' })
      await again.close()
      const types = (await readFile(first.filePath, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as Line).type)
      expect(types).toEqual(['session_meta', 'response_item', 'response_item'])
      const meta = JSON.parse((await readFile(first.filePath, 'utf8')).split('\n')[0] ?? '') as {
        payload: { id: string }
      }
      // Codex names its files rollout-<time>-<uuid>: the uuid is the session's id.
      expect(meta.payload.id).toBe('0198c0de-0000-7000-8000-000000000001')
    })
  })
})

describe('recordTurn() refuses a malformed turn at the call and records nothing', () => {
  const bad: ReadonlyArray<[string, unknown, RegExp]> = [
    ['an unknown kind', { kind: 'shout', text: 'x' }, /`turn.kind`/],
    ['text that is not a string', { kind: 'user', text: 42 }, /`turn.text` to be a string/],
    ['a tool call without a name', { kind: 'tool-call', callId: 'c', input: {} }, /`turn.name`/],
    [
      'negative tokens',
      { kind: 'assistant', text: '', usage: { inputTokens: -1, outputTokens: 0 } },
      /`turn.usage.inputTokens` to be a whole number/,
    ],
    [
      'cached tokens beyond all input',
      { kind: 'assistant', text: '', usage: { inputTokens: 10, outputTokens: 0, cacheReadInputTokens: 11 } },
      /it counts every input token/,
    ],
  ]
  it.for(bad)('%s', async ([, turn, message]) => {
    await withTempDir(async (dir) => {
      const recorder = createRecorder({ dir })
      expect(() => recorder.recordTurn(turn as Turn)).toThrow(InvalidRecordError)
      expect(() => recorder.recordTurn(turn as Turn)).toThrow(message)
      expect(recorder.stats().recorded).toBe(0)
      await recorder.close()
    })
  })
})
