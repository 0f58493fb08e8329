import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readConversation, type ConversationEvent } from '../src/index.js'

// Our own fixtures of the three formats, written for the recorder's readers.
const FORMATS = path.resolve(import.meta.dirname, '../../recorder/test/fixtures/formats')
const CODEX = path.join(
  FORMATS,
  'codex-sessions/2026/05/12/rollout-2026-05-12T10-00-00-7c1e2f30-5a4b-4d6e-9f10-2b3c4d5e6f70.jsonl',
)
const COPILOT = path.join(FORMATS, 'copilot-session-state/5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f/events.jsonl')
const CURSOR = path.join(
  FORMATS,
  'cursor-transcripts/b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e/b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e.jsonl',
)

/** The conversation's turns, without what every event carries. */
function turns(events: readonly ConversationEvent[]): string[] {
  return events
    .filter((event) => !['other', 'session', 'usage'].includes(event.kind))
    .map((event) => {
      switch (event.kind) {
        case 'tool-call':
          return `tool-call ${event.name}`
        case 'tool-result':
          return `tool-result ${event.isError ? 'error' : 'ok'}`
        case 'user':
        case 'assistant':
        case 'thinking':
          return `${event.kind}: ${event.text.slice(0, 30)}`
        default:
          return event.kind
      }
    })
}

describe('the conversation model reads Codex CLI, Copilot CLI and Cursor CLI sessions', () => {
  it('Codex CLI: messages, reasoning, tool calls and outputs, usage as @ccusage/codex counts it', async () => {
    const conversation = await readConversation(CODEX)
    expect(conversation.agent).toBe('codex-cli')
    expect(conversation.problems).toEqual([])
    const kinds = new Set(conversation.events.map((event) => event.kind))
    for (const kind of ['session', 'user', 'assistant', 'tool-call', 'tool-result'] as const)
      expect(kinds, kind).toContain(kind)
    const session = conversation.events.find((event) => event.kind === 'session')
    expect(session).toMatchObject({ agent: 'codex-cli' })
    // Every tool call is answered by a result with its call id.
    const calls = conversation.events.filter((event) => event.kind === 'tool-call')
    const results = conversation.events.filter((event) => event.kind === 'tool-result')
    expect(results.map((r) => r.callId).sort()).toEqual(calls.map((c) => c.callId).sort())
  })

  it('Copilot CLI: user, tool requests and their results, the assistant, the session context', async () => {
    const conversation = await readConversation(COPILOT)
    expect(conversation.agent).toBe('copilot-cli')
    expect(conversation.problems).toEqual([])
    expect(conversation.events.find((event) => event.kind === 'session')).toMatchObject({
      sessionId: '5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f',
      agentVersion: '1.0.30',
      cwd: '/home/dev/blog',
      gitBranch: 'drafts',
    })
    const list = turns(conversation.events)
    expect(list[0]).toBe('user: Fix the broken link in the abo')
    expect(list).toContain('tool-call grep')
    expect(list).toContain('tool-result ok')
    expect(list.some((turn) => turn.startsWith('assistant: '))).toBe(true)
    const assistant = conversation.events.find((event) => event.kind === 'assistant')
    expect(assistant).toMatchObject({ model: 'claude-sonnet-4.5' })
  })

  it('Cursor CLI: Anthropic content blocks by role; the turn_ended lines are not turns', async () => {
    const conversation = await readConversation(CURSOR)
    expect(conversation.agent).toBe('cursor-cli')
    expect(conversation.problems).toEqual([])
    expect(turns(conversation.events).slice(0, 6)).toEqual([
      'user: Find unused exports and list t',
      'thinking: A sub-agent can scan while I a',
      'assistant: Starting a scan.',
      'tool-call Task',
      'tool-result ok',
      'assistant: Unused: pad and clamp in src/u',
    ])
  })
})
