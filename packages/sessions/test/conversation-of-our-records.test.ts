import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRecorder } from '@sessiontape/recorder'
import { readConversation } from '@sessiontape/sessions'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sessions-ours-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('our own records as a conversation', () => {
  it('maps user, assistant, thinking, tool_call, tool_result, usage and title records', async () => {
    const recorder = createRecorder({ dir, sessionId: 'ours-1', meta: false })
    recorder.record('session', {
      agent: 'my-agent',
      agentVersion: '1.2.0',
      cwd: '/w',
      gitBranch: 'main',
      model: 'm-1',
    })
    recorder.record('title', { title: 'Ours' })
    const user = recorder.record('user', { text: 'hi' })
    const assistant = recorder.record('assistant', {
      text: 'calling a tool',
      thinking: 'should list',
      model: 'm-1',
      usage: { inputTokens: 100, cacheReadInputTokens: 40, outputTokens: 10, reasoningOutputTokens: 3 },
    })
    recorder.record('tool_call', { callId: 'c1', name: 'ls', input: { path: '.' } })
    recorder.record('tool_result', { callId: 'c1', output: 'a\nb', isError: false })
    recorder.record('usage', { model: 'm-1', inputTokens: 5, outputTokens: 1 })
    await recorder.close()

    const conversation = await readConversation(recorder.filePath)
    expect(conversation).toMatchObject({
      format: 'sessiontape',
      agent: 'sessiontape',
      sessionId: 'ours-1',
      title: 'Ours',
      problems: [],
    })
    const events = conversation.events.map(
      ({ raw: _raw, timestamp: _t, id: _id, parentId: _p, line: _l, ...rest }) => rest,
    )
    expect(events).toEqual([
      {
        kind: 'session',
        agent: 'sessiontape',
        sessionId: 'ours-1',
        agentVersion: '1.2.0',
        cwd: '/w',
        gitBranch: 'main',
        model: 'm-1',
      },
      { kind: 'title', title: 'Ours', source: 'set' },
      { kind: 'user', text: 'hi' },
      { kind: 'thinking', text: 'should list' },
      { kind: 'assistant', text: 'calling a tool', model: 'm-1' },
      {
        kind: 'usage',
        model: 'm-1',
        usage: {
          inputTokens: 100,
          cacheReadInputTokens: 40,
          cacheCreationInputTokens: 0,
          outputTokens: 10,
          reasoningOutputTokens: 3,
          totalTokens: 110,
        },
      },
      { kind: 'tool-call', callId: 'c1', name: 'ls', input: { path: '.' } },
      { kind: 'tool-result', callId: 'c1', output: 'a\nb', isError: false },
      {
        kind: 'usage',
        model: 'm-1',
        usage: {
          inputTokens: 5,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
          outputTokens: 1,
          reasoningOutputTokens: 0,
          totalTokens: 6,
        },
      },
    ])
    const ids = conversation.events.map((e) => e.id)
    expect(ids).toContain(user)
    expect(ids).toContain(assistant)
    expect(conversation.events.find((e) => e.id === `${assistant}#1`)).toMatchObject({
      kind: 'assistant',
      parentId: assistant,
    })
  })

  it('reads records written with the claude-code profile by Claude rules (usage counted once per request)', async () => {
    const recorder = createRecorder({
      dir,
      sessionId: 'claude-shaped',
      meta: false,
      profile: 'claude-code',
      profileFields: { cwd: '/w', version: '2.0.0' },
    })
    recorder.record('user', { message: { role: 'user', content: 'go' } })
    for (const block of [
      { type: 'text', text: 'working' },
      { type: 'tool_use', id: 'toolu_9', name: 'Bash', input: { command: 'ls' } },
    ]) {
      recorder.record('assistant', {
        requestId: 'req_9',
        message: {
          id: 'msg_9',
          role: 'assistant',
          model: 'claude-opus-4-1',
          content: [block],
          usage: { input_tokens: 3, output_tokens: 7, cache_read_input_tokens: 11 },
        },
      })
    }
    await recorder.close()
    const conversation = await readConversation(recorder.filePath)
    expect(conversation.format).toBe('sessiontape')
    expect(conversation.events.map((e) => e.kind)).toEqual([
      'session',
      'user',
      'assistant',
      'usage',
      'tool-call',
    ])
    expect(conversation.events.find((e) => e.kind === 'usage')).toMatchObject({
      requestKey: 'msg_9:req_9',
      usage: { inputTokens: 14, cacheReadInputTokens: 11, outputTokens: 7, totalTokens: 21 },
    })
  })
})
