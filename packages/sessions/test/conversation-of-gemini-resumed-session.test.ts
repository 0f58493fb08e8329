import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportSession, readConversation, summarizeUsage } from '@sessiontape/sessions'

// Written by the real Gemini CLI 0.61.0 in the conformance suite's `tool-resume` scenario (a shell tool
// call, then `gemini --resume`), unedited. On resume Gemini restates the first run's messages in a
// `$set.messages` checkpoint without their `tokens` and `toolCalls` (the call becomes a `functionCall`
// part), and adds a `<id>_response` message holding the tool's answer a second time.
const DIR = path.join(import.meta.dirname, 'fixtures', 'gemini-0.61-tool-resume')
const FILE = path.join(DIR, 'session-2026-11-28T17-39-69911156.jsonl')

describe('a Gemini CLI 0.61 session resumed after a tool call', () => {
  it('usage counts each of its three main requests once, the first run included', async () => {
    // The model server's own log for this scenario: three gemini-3.8-flash requests, prompt tokens
    // 14394 + 14508 + 14736 and candidates + thoughts 547 + 554 + 568 (its two gemini-3.5-flash-lite
    // routing calls Gemini records nowhere).
    const summary = await summarizeUsage(DIR, { timeZone: 'UTC' })
    expect(summary.totals).toMatchObject({
      inputTokens: 43638,
      outputTokens: 1669,
      cacheReadInputTokens: 2273 + 2286 + 2312,
      reasoningOutputTokens: 93 + 96 + 102,
      requests: 3,
    })
  })

  it('the tool call and its result are each one event; no function part shows as text', async () => {
    const conversation = await readConversation(FILE)
    expect(conversation.problems).toEqual([])
    const events = conversation.events
    const calls = events.filter((e) => e.kind === 'tool-call')
    const results = events.filter((e) => e.kind === 'tool-result')
    expect(calls.map((e) => [e.name, e.input])).toEqual([
      ['run_shell_command', { command: 'ls', description: 'List the files', is_background: false }],
    ])
    expect(results.map((e) => [e.callId, e.output.includes('Output: hello.py\nnotes.txt')])).toEqual([
      [calls[0]!.callId, true],
    ])
    const texts = events.flatMap((e) => ('text' in e ? [e.text] : []))
    expect(texts.filter((t) => /functionCall|functionResponse/.test(t))).toEqual([])
    const users = events.filter((e) => e.kind === 'user').map((e) => e.text)
    expect(users.filter((t) => t.startsWith('CONF-'))).toEqual([
      'CONF-TOOL: List the files in this directory. [[tool]]',
      'CONF-RESUME: Now summarize notes.txt in one line.',
    ])
  })

  it('the export shows the call once and its result once, with the whole session in its total', async () => {
    const { text } = await exportSession(FILE, { format: 'md' })
    expect(text).not.toContain('functionCall')
    expect(text).not.toContain('functionResponse')
    expect(text!.split('Output: hello.py').length - 1).toBe(1)
    expect(text).toMatch(/^- Tokens: 43,638 in \(6,871 cached\) · 1,669 out/m)
  })
})
