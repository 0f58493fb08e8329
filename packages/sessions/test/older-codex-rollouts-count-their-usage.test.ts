import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readConversation, type ConversationEvent } from '../src/index.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sessions-codex-usage-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const META = {
  timestamp: '2025-10-30T10:00:00.000Z',
  type: 'session_meta',
  payload: { id: 'older-rollout', cwd: '/tmp/p', originator: 'codex_cli_rs', cli_version: '0.51.0' },
}

function event(second: number, payload: Record<string, unknown>): Record<string, unknown> {
  return { timestamp: `2025-10-30T10:00:${String(second).padStart(2, '0')}.000Z`, type: 'event_msg', payload }
}

async function usageOf(lines: readonly object[]): Promise<number[][]> {
  const file = path.join(dir, 'rollout-2025-10-30T10-00-00-older-rollout.jsonl')
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
  const conversation = await readConversation(file)
  expect(conversation.agent).toBe('codex-cli')
  return conversation.events
    .filter((e): e is Extract<ConversationEvent, { kind: 'usage' }> => e.kind === 'usage')
    .map(({ usage }) => [
      usage.inputTokens,
      usage.cacheReadInputTokens,
      usage.outputTokens,
      usage.totalTokens,
    ])
}

describe('older Codex CLI rollouts (0.50–0.52) count their usage', () => {
  it('turn.completed events with a per-turn usage', async () => {
    const usage = await usageOf([
      META,
      event(5, {
        type: 'turn.completed',
        usage: { input_tokens: 1420, cached_input_tokens: 380, output_tokens: 910 },
      }),
      event(15, {
        type: 'turn.completed',
        usage: { input_tokens: 2840, cached_input_tokens: 1420, output_tokens: 1520, total_tokens: 4360 },
      }),
    ])
    expect(usage).toEqual([
      [1420, 380, 910, 2330],
      [2840, 1420, 1520, 4360],
    ])
  })

  it('a token_count whose info is {prompt, completion}; one without info counts nothing', async () => {
    const usage = await usageOf([
      META,
      event(1, { type: 'turn.completed', message: 'ok' }),
      event(2, { type: 'token_count', info: { prompt: 1420, completion: 910 } }),
      event(11, { type: 'token_count', info: null }),
    ])
    expect(usage).toEqual([[1420, 0, 910, 2330]])
  })

  it('a file with both kinds counts only the first kind that carried tokens (no request twice)', async () => {
    const usage = await usageOf([
      META,
      event(2, { type: 'token_count', info: { last_token_usage: { input_tokens: 100, output_tokens: 10 } } }),
      event(3, { type: 'turn.completed', usage: { input_tokens: 100, output_tokens: 10 } }),
      event(4, { type: 'token_count', info: { last_token_usage: { input_tokens: 200, output_tokens: 20 } } }),
    ])
    expect(usage).toEqual([
      [100, 0, 10, 110],
      [200, 0, 20, 220],
    ])
  })
})
