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

/** The payloads of the `huge` workload (see workloads.ts), built once per process before the timed phase. */
export type HugeKind = 'base64' | 'text' | 'fields'
const huge = new Map<string, Record<string, unknown>>()

/**
 * `base64`: a screenshot-like base64 string of `mb` MB; `text`: `mb` MB of file or command output with
 * quotes, backslashes, newlines, tabs, controls and non-ASCII (a two-byte string); `fields`: an object with
 * 10⁵ small fields (the structure itself is big, its strings are not).
 */
export function hugeData(kind: HugeKind, mb: number): Record<string, unknown> {
  const key = `${kind}/${mb}`
  let data = huge.get(key)
  if (data === undefined) {
    const chars = mb * 1_000_000
    if (kind === 'base64') {
      const base64 = Buffer.alloc(Math.ceil((chars * 3) / 4), 0x5a).toString('base64')
      data = { toolUseId: `tool-${key}`, output: { mimeType: 'image/png', base64 } }
    } else if (kind === 'text') {
      const unit = 'src/app.ts:12: error "unexpected token" \\ at\tparse() → café 日本 ✓\n'
      // join(''), not repeat(): a flat string, as a file read or a joined output buffer is.
      const text = Array.from({ length: Math.ceil(chars / unit.length) }, () => unit).join('')
      data = { toolUseId: `tool-${key}`, output: { stdout: text, exitCode: 1 } }
    } else {
      const fields: Record<string, unknown> = {}
      for (let i = 0; i < 100_000; i++) fields[`f${i}`] = i % 2 === 0 ? i : `value ${i}`
      data = { toolUseId: `tool-${key}`, output: fields }
    }
    huge.set(key, data)
  }
  return data
}
