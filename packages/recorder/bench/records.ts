import { randomUUID } from 'node:crypto'

/** A chat event of about 1 KB once serialized with its envelope, shaped like an agent CLI's turn. */
export function chatData(i: number): Record<string, unknown> {
  return {
    message: {
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [
        {
          type: 'text',
          text: `Turn ${i}: ${'Looking at the failing test, the fixture writes before the directory exists. '.repeat(8)}`,
        },
      ],
    },
    model: 'scripted-model-1',
    usage: { inputTokens: 1200 + i, outputTokens: 340, cacheReadTokens: 800 },
    cwd: '/home/dev/project',
    gitBranch: 'main',
  }
}

// One 1.9 MB binary blob → ~2.5 MB of base64, like a screenshot or a file read by a tool.
let blob: string | undefined
export function bigData(i: number): Record<string, unknown> {
  blob ??= Buffer.alloc(1_900_000, 0x5a).toString('base64')
  return { toolUseId: `tool-${i}`, output: { mimeType: 'image/png', base64: blob } }
}

/**
 * What a writer without an envelope of its own must build per record: the same fields, in the same order,
 * as the recorder writes — so every variant produces the same bytes.
 */
export function envelopeLine(sessionId: string, parentUuid: string | null, type: string, data: object) {
  const uuid = randomUUID()
  const line = `${JSON.stringify({ uuid, parentUuid, sessionId, timestamp: new Date().toISOString(), type, v: 1, ...data })}\n`
  return { uuid, line }
}
