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

/** The payloads of the `huge` and `fields` workloads (see workloads.ts), built once per process, untimed. */
export type HugeKind = 'base64' | 'text' | 'fields' | 'items'
const huge = new Map<string, { readonly data: Record<string, unknown>; readonly mb: number }>()
// The tags of an `items` payload's objects (one to three each; an object serializes to about 70 bytes).
const ITEM_TAGS = ['lint', 'test', 'build'] as const
// Fields of a `fields` payload, objects of an `items` payload.
const STRUCTURE_SIZE = 100_000

/**
 * `base64`: a screenshot-like base64 string of `mb` MB; `text`: `mb` MB of file or command output with
 * quotes, backslashes, newlines, tabs, controls and non-ASCII (a two-byte string); `fields`: an object with
 * 10⁵ small fields; `items`: an array of 10⁵ small objects (`{ id, name, ok, tags }`), like a tool's
 * list of search hits or test results. For the last two the structure itself is big, its strings are not,
 * and `mb` is ignored.
 */
export function hugeData(kind: HugeKind, mb: number): Record<string, unknown> {
  return built(kind, mb).data
}

/** The serialized size of a payload of {@link hugeData}, in MB of UTF-16 code units (builds it if needed). */
export function hugeMb(kind: HugeKind, mb: number): number {
  return built(kind, mb).mb
}

function built(kind: HugeKind, mb: number) {
  const key = kind === 'fields' || kind === 'items' ? kind : `${kind}/${mb}`
  let entry = huge.get(key)
  if (entry === undefined) {
    const chars = mb * 1_000_000
    let data: Record<string, unknown>
    if (kind === 'base64') {
      const base64 = Buffer.alloc(Math.ceil((chars * 3) / 4), 0x5a).toString('base64')
      data = { toolUseId: `tool-${key}`, output: { mimeType: 'image/png', base64 } }
    } else if (kind === 'text') {
      const unit = 'src/app.ts:12: error "unexpected token" \\ at\tparse() → café 日本 ✓\n'
      // join(''), not repeat(): a flat string, as a file read or a joined output buffer is.
      const text = Array.from({ length: Math.ceil(chars / unit.length) }, () => unit).join('')
      data = { toolUseId: `tool-${key}`, output: { stdout: text, exitCode: 1 } }
    } else if (kind === 'fields') {
      const fields: Record<string, unknown> = {}
      for (let i = 0; i < STRUCTURE_SIZE; i++) fields[`f${i}`] = i % 2 === 0 ? i : `value ${i}`
      data = { toolUseId: `tool-${key}`, output: fields }
    } else {
      const items = Array.from({ length: STRUCTURE_SIZE }, (_, i) => ({
        id: i,
        name: `result ${i}`,
        ok: i % 7 !== 0,
        tags: ITEM_TAGS.slice(0, 1 + (i % ITEM_TAGS.length)),
      }))
      data = { toolUseId: `tool-${key}`, output: { items } }
    }
    // Stringified only when small (a structure of a few MB): a 100 MB one would raise the peak RSS measured.
    const size = kind === 'base64' || kind === 'text' ? mb : JSON.stringify(data).length / 1_000_000
    entry = { data, mb: size }
    huge.set(key, entry)
  }
  return entry
}
