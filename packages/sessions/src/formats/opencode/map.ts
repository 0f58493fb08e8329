import type { Conversation, ConversationEvent, EventImage, Usage } from '../../model.js'
import { nonEmpty, objectOf, textOf, type Draft } from '../mapper.js'

/**
 * OpenCode's rows, mapped onto the conversation model. The schema (packages/opencode/src/session/
 * session.sql.ts in sst/opencode) keeps a session per `session` row (its running `cost` and `tokens_*`
 * figures, `parent_id` for a subagent's session), a `message` row per user or assistant message and a
 * `part` row per piece of one, each with its fields as JSON in `data` (message-v2.ts):
 * - user message parts: `text` (the prompt; `synthetic` ones are what OpenCode added, such as a file's
 *   contents), `file` (an attachment, inline as a `data:` URL where it is an image);
 * - assistant message parts: `text`, `reasoning`, `tool` (`callID`, `tool`, `state.input` and, once done,
 *   `state.output` or `state.error`), `step-start`, `step-finish` (one model request: `tokens` and `cost`),
 *   `compaction`, `patch`, `snapshot`, `agent`, `subtask`, `retry`.
 * Tokens: `input` leaves the cache out and `output` the reasoning (both are added back here, so `Usage`
 * means what it means for every agent). One usage event per `step-finish` part, keyed by the part's id;
 * an assistant message without one (an older release) counts its own `tokens` once.
 */

export interface SessionRow {
  readonly id: string
  readonly [column: string]: unknown
}
export interface DataRow {
  readonly id: string
  readonly session_id: string
  readonly message_id?: string
  readonly time_created: unknown
  readonly data: unknown
}

/** A session's rows, mapped; `rowsNotRead` counts rows whose `data` is not a JSON object. */
export function mapSession(
  file: string,
  session: SessionRow,
  messages: readonly DataRow[],
  partsOf: ReadonlyMap<string, readonly DataRow[]>,
): { conversation: Conversation; rowsNotRead: number } {
  const events: ConversationEvent[] = []
  let rowsNotRead = 0
  let last: string | null = null
  const push = (draft: Draft, id: string, time: unknown, raw: unknown, onBranch: boolean): void => {
    const timestamp = isoOf(time)
    events.push({
      ...draft,
      id,
      ...(onBranch ? { parentId: last } : {}),
      ...(timestamp === undefined ? {} : { timestamp }),
      line: 0,
      raw,
    })
    if (onBranch) last = id
  }
  const model = objectOf(parseJson(session.model))
  push(
    {
      kind: 'session',
      agent: 'opencode',
      sessionId: session.id,
      ...fields({
        agentVersion: session.version,
        cwd: session.directory,
        model: model?.id,
        parentSessionId: session.parent_id,
      }),
    },
    `${session.id}@session`,
    session.time_created,
    session,
    false,
  )
  const title = nonEmpty(session.title)
  if (title !== undefined)
    push(
      { kind: 'title', title, source: 'generated' },
      `${session.id}@title`,
      session.time_updated,
      session,
      false,
    )
  for (const message of messages) {
    const info = objectOf(parseJson(message.data))
    if (info === undefined) {
      rowsNotRead++
      push(
        { kind: 'other', type: 'message (data not JSON)' },
        message.id,
        message.time_created,
        message,
        true,
      )
      continue
    }
    const parts: { row: DataRow; data: Readonly<Record<string, unknown>> }[] = []
    for (const row of partsOf.get(message.id) ?? []) {
      const data = objectOf(parseJson(row.data))
      if (data === undefined) {
        rowsNotRead++
        push({ kind: 'other', type: 'part (data not JSON)' }, row.id, row.time_created, row, true)
      } else parts.push({ row, data })
    }
    const role = info.role
    const modelId = nonEmpty(info.modelID) ?? nonEmpty(objectOf(info.model)?.modelID)
    if (role === 'user') {
      const text = parts.filter((p) => p.data.type === 'text').map((p) => textOf(p.data.text))
      const images = parts.flatMap((p) => imageOfFilePart(p.data))
      push(
        { kind: 'user', text: text.join('\n'), ...(images.length === 0 ? {} : { images }) },
        message.id,
        message.time_created,
        { message: info, parts: parts.map((p) => p.data) },
        true,
      )
      continue
    }
    let usageEvents = 0
    for (const { row, data } of parts) {
      const raw = { message: info, part: data }
      for (const [draft, suffix] of partDrafts(data, modelId)) {
        if (draft.kind === 'usage') usageEvents++
        push(draft, `${row.id}${suffix}`, row.time_created, raw, draft.kind !== 'usage')
      }
    }
    const tokens = objectOf(info.tokens)
    if (usageEvents === 0 && tokens !== undefined && usageOf(tokens).totalTokens > 0) {
      const draft = { kind: 'usage', usage: usageOf(tokens), requestKey: message.id } as const
      push(
        modelId === undefined ? draft : { ...draft, model: modelId },
        `${message.id}@usage`,
        message.time_created,
        info,
        false,
      )
    }
    const error = objectOf(info.error)
    if (error !== undefined) {
      const text = textOf(objectOf(error.data)?.message ?? error.name)
      push({ kind: 'marker', marker: 'error', text }, `${message.id}@error`, message.time_created, info, true)
    }
  }
  const activeBranch = events.filter((e) => 'parentId' in e).map((e) => e.id)
  return {
    conversation: {
      file,
      format: 'opencode',
      agent: 'opencode',
      sessionId: session.id,
      ...(title === undefined ? {} : { title }),
      events,
      activeBranch,
      problems: [],
    },
    rowsNotRead,
  }
}

/** The drafts of one assistant part, each with the suffix its id takes after the part's id. */
function partDrafts(data: Readonly<Record<string, unknown>>, model: string | undefined): [Draft, string][] {
  switch (data.type) {
    case 'text':
      return [[{ kind: 'assistant', text: textOf(data.text), ...(model === undefined ? {} : { model }) }, '']]
    case 'reasoning':
      return [[{ kind: 'thinking', text: textOf(data.text) }, '']]
    case 'tool': {
      const state = objectOf(data.state) ?? {}
      const callId = nonEmpty(data.callID) ?? ''
      const call: Draft = { kind: 'tool-call', callId, name: textOf(data.tool), input: state.input ?? {} }
      if (state.status === 'completed')
        return [
          [call, ''],
          [{ kind: 'tool-result', callId, output: textOf(state.output), isError: false }, '#result'],
        ]
      if (state.status === 'error')
        return [
          [call, ''],
          [{ kind: 'tool-result', callId, output: textOf(state.error), isError: true }, '#result'],
        ]
      return [[call, '']]
    }
    case 'step-finish': {
      const tokens = objectOf(data.tokens)
      if (tokens === undefined) return [[{ kind: 'other', type: 'step-finish' }, '']]
      return [[{ kind: 'usage', usage: usageOf(tokens), ...(model === undefined ? {} : { model }) }, '']]
    }
    case 'compaction':
      return [[{ kind: 'compaction' }, '']]
    default:
      return [[{ kind: 'other', type: typeof data.type === 'string' ? data.type : 'part' }, '']]
  }
}

/** OpenCode's `tokens` object normalized: cache added to input, reasoning to output. */
export function usageOf(tokens: Readonly<Record<string, unknown>>): Usage {
  const cache = objectOf(tokens.cache) ?? {}
  const cacheRead = count(cache.read)
  const cacheWrite = count(cache.write)
  const reasoning = count(tokens.reasoning)
  const inputTokens = count(tokens.input) + cacheRead + cacheWrite
  const outputTokens = count(tokens.output) + reasoning
  return {
    inputTokens,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
    outputTokens,
    reasoningOutputTokens: reasoning,
    totalTokens: inputTokens + outputTokens,
  }
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0
}

/** An image attachment held inline (`file` part with an image `mime` and a base64 `data:` URL). */
function imageOfFilePart(data: Readonly<Record<string, unknown>>): EventImage[] {
  if (data.type !== 'file' || typeof data.url !== 'string') return []
  const match = /^data:([^;,]*);base64,/.exec(data.url)
  if (match === null || !match[1]!.startsWith('image/')) return []
  return [{ mediaType: match[1]!, data: data.url.slice(match[0].length) }]
}

function fields(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    const text = nonEmpty(value)
    if (text !== undefined) out[key] = text
  }
  return out
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    // Not JSON: the caller counts the row as not read.
    return undefined
  }
}

/** OpenCode's times are milliseconds since the epoch. */
function isoOf(value: unknown): string | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined
}
