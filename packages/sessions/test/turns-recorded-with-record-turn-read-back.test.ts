import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRecorder, type WriterProfile } from '@sessiontape/recorder'
import { readConversation, type ConversationEvent } from '@sessiontape/sessions'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sessions-turns-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** What a reader should see of the turns below, whatever profile wrote them. */
const EXPECTED = [
  { kind: 'user', text: 'Fix the login bug' },
  { kind: 'thinking', text: 'Read auth.ts first.' },
  { kind: 'tool-call', callId: 'call_1', name: 'Read', input: { file_path: 'src/auth.ts' } },
  { kind: 'tool-result', callId: 'call_1', output: 'export function login() {}', isError: false },
  { kind: 'assistant', text: 'Fixed.', model: 'model-x' },
  {
    kind: 'usage',
    model: 'model-x',
    usage: {
      inputTokens: 1650,
      cacheReadInputTokens: 400,
      cacheCreationInputTokens: 50,
      outputTokens: 300,
      reasoningOutputTokens: 0,
      totalTokens: 1950,
    },
  },
]

function turnsOf(events: readonly ConversationEvent[]) {
  return events
    .filter((e) => e.kind !== 'session' && e.kind !== 'title' && e.kind !== 'other')
    .map(({ kind, ...rest }) => {
      const {
        id: _i,
        parentId: _p,
        timestamp: _t,
        line: _l,
        raw: _r,
        requestKey: _k,
        ...fields
      } = rest as Record<string, unknown>
      return { kind, ...fields }
    })
}

describe('turns recorded with recordTurn() read back as the same events', () => {
  it.for(['sessiontape', 'claude-code', 'qwen-code'] as WriterProfile[])('profile %s', async (profile) => {
    const recorder = createRecorder({
      dir,
      sessionId: `turns-${profile}`,
      meta: false,
      profile: profile === 'sessiontape' ? undefined : profile,
    })
    recorder.recordTurn({ kind: 'title', title: 'Login bug' })
    recorder.recordTurn({ kind: 'user', text: 'Fix the login bug' })
    recorder.recordTurn({ kind: 'thinking', text: 'Read auth.ts first.' })
    recorder.recordTurn({
      kind: 'tool-call',
      callId: 'call_1',
      name: 'Read',
      input: { file_path: 'src/auth.ts' },
    })
    recorder.recordTurn({ kind: 'tool-result', callId: 'call_1', output: 'export function login() {}' })
    recorder.recordTurn({
      kind: 'assistant',
      text: 'Fixed.',
      model: 'model-x',
      messageId: 'msg_01',
      requestId: 'req_01',
      usage: {
        inputTokens: 1650,
        cacheReadInputTokens: 400,
        cacheCreationInputTokens: 50,
        outputTokens: 300,
      },
    })
    await recorder.close()
    const conversation = await readConversation(recorder.filePath)
    expect(conversation.problems).toEqual([])
    expect(conversation.title).toBe('Login bug')
    const expected =
      profile === 'qwen-code'
        ? // Qwen's usageMetadata has no cache-creation count: those tokens stay plain input.
          EXPECTED.map((e) =>
            e.kind === 'usage' ? { ...e, usage: { ...e.usage!, cacheCreationInputTokens: 0 } } : e,
          )
        : EXPECTED
    expect(turnsOf(conversation.events)).toEqual(expected)
  })
})
