/**
 * Typed conversation records: `recorder.recordTurn(turn)` writes a user message, an assistant message (with
 * its model and token usage), thinking, a tool call, a tool result or a title in the shape the recorder's
 * writer profile calls for, so an agent need not invent a schema and every reader (ours, and the agent's
 * own tools for the agent profiles) sees the same turns and counts the same tokens.
 *
 * Each turn becomes one or more `{ type, data }` records; this file only decides their shapes. The
 * shapes per profile:
 * - `sessiontape`: `user {text}`, `assistant {text, model?, usage?, messageId?}`, `thinking {text}`,
 *   `tool_call {callId, name, input}`, `tool_result {callId, output, isError}`, `title {title}`.
 *   `usage` is normalized (see {@link TurnUsage}): input counts every input token, cached ones included.
 * - `claude-code` (and `qwen-code`, which reads Claude's shapes' fields it knows): Anthropic Messages
 *   content blocks under `message` — `user` with string content, `assistant` with a `text` / `thinking` /
 *   `tool_use` block, `user` with a `tool_result` block; usage under `message.usage` with Anthropic's
 *   split (`input_tokens` excludes cache reads and writes), `message.id` + `requestId` as ccusage
 *   de-duplicates them; a title as our `title` plus Claude's `custom-title`.
 * - `codex`: rollout lines `{type, payload}` — `response_item` messages (`input_text` / `output_text`),
 *   `reasoning`, `function_call` (arguments as a JSON string) and `function_call_output`; usage as an
 *   `event_msg` `token_count` with running totals and the last request's counts (OpenAI's split:
 *   `input_tokens` includes `cached_input_tokens`, `output_tokens` includes reasoning), preceded by a
 *   `turn_context` whenever the model changes.
 */
import { InvalidRecordError } from '../errors.js'
import type { WriterProfile } from '../options.js'

/** Token counts of one model request, normalized like OpenTelemetry's `gen_ai.usage.*`. */
export interface TurnUsage {
  /** Every input token, cached ones included. */
  readonly inputTokens: number
  readonly outputTokens: number
  /** Input tokens read from a prompt cache (a part of `inputTokens`). @default 0 */
  readonly cacheReadInputTokens?: number
  /** Input tokens written to a prompt cache (a part of `inputTokens`). @default 0 */
  readonly cacheCreationInputTokens?: number
  /** Reasoning tokens (a part of `outputTokens`). @default 0 */
  readonly reasoningOutputTokens?: number
}

/** One turn of a conversation, as {@link Recorder.recordTurn} takes it. */
export type Turn =
  | { readonly kind: 'user'; readonly text: string }
  | {
      readonly kind: 'assistant'
      readonly text: string
      readonly model?: string
      readonly usage?: TurnUsage
      /** The provider's message id (Anthropic `msg_…`); with `requestId`, what usage tools de-duplicate on. */
      readonly messageId?: string
      readonly requestId?: string
    }
  | { readonly kind: 'thinking'; readonly text: string }
  | { readonly kind: 'tool-call'; readonly callId: string; readonly name: string; readonly input: unknown }
  | {
      readonly kind: 'tool-result'
      readonly callId: string
      readonly output: string
      readonly isError?: boolean
    }
  | { readonly kind: 'title'; readonly title: string }

export type TurnKind = Turn['kind']

/** A record to write: `record(type, data)`. */
export interface TurnRecord {
  readonly type: string
  readonly data: Record<string, unknown>
}

interface Counts {
  input: number
  cached: number
  output: number
  reasoning: number
}

/**
 * Maps turns onto one profile's records. Owns what a profile must remember between turns: Codex's running
 * token totals and the model its last `turn_context` named.
 */
export class TurnShaper {
  readonly #profile: WriterProfile
  readonly #cwd: string
  readonly #totals: Counts = { input: 0, cached: 0, output: 0, reasoning: 0 }
  #codexModel: string | undefined

  constructor(profile: WriterProfile, cwd: string) {
    this.#profile = profile
    this.#cwd = cwd
  }

  /** The records for `turn`; a malformed turn throws an `InvalidRecordError` and changes nothing. */
  recordsOf(turn: Turn): TurnRecord[] {
    checkTurn(turn)
    switch (this.#profile) {
      case 'sessiontape':
        return [ownRecord(turn)]
      case 'claude-code':
      case 'qwen-code':
        return claudeRecords(turn)
      case 'codex':
        return this.#codexRecords(turn)
    }
  }

  #codexRecords(turn: Turn): TurnRecord[] {
    const item = (payload: Record<string, unknown>): TurnRecord => ({
      type: 'response_item',
      data: { payload },
    })
    switch (turn.kind) {
      case 'user':
        return [item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.text }] })]
      case 'thinking':
        return [
          item({
            type: 'reasoning',
            summary: [{ type: 'summary_text', text: turn.text }],
            content: null,
            encrypted_content: null,
          }),
        ]
      case 'tool-call':
        return [
          item({
            type: 'function_call',
            name: turn.name,
            arguments: JSON.stringify(turn.input ?? null),
            call_id: turn.callId,
          }),
        ]
      case 'tool-result':
        return [item({ type: 'function_call_output', call_id: turn.callId, output: turn.output })]
      case 'title':
        return [{ type: 'title', data: { title: turn.title } }]
      case 'assistant': {
        const records: TurnRecord[] = []
        if (turn.model !== undefined && turn.model !== this.#codexModel) {
          this.#codexModel = turn.model
          records.push({ type: 'turn_context', data: { payload: { cwd: this.#cwd, model: turn.model } } })
        }
        records.push(
          item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.text }] }),
        )
        if (turn.usage !== undefined) records.push(this.#tokenCount(turn.usage))
        return records
      }
    }
  }

  #tokenCount(usage: TurnUsage): TurnRecord {
    const last: Counts = {
      input: usage.inputTokens,
      cached: usage.cacheReadInputTokens ?? 0,
      output: usage.outputTokens,
      reasoning: usage.reasoningOutputTokens ?? 0,
    }
    this.#totals.input += last.input
    this.#totals.cached += last.cached
    this.#totals.output += last.output
    this.#totals.reasoning += last.reasoning
    return {
      type: 'event_msg',
      data: {
        payload: {
          type: 'token_count',
          info: {
            total_token_usage: codexUsage(this.#totals),
            last_token_usage: codexUsage(last),
            model_context_window: null,
          },
        },
      },
    }
  }
}

/** Codex metadata lines: they describe the session, never a turn, so they never become a parent. */
export const CODEX_METADATA_TYPES: readonly string[] = ['session_meta', 'turn_context']

const UUID_AT_END = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The `session_meta` record a `codex` profile writes first in a new transcript: what Codex's resume and
 * listing read. Its `id` is the uuid at the end of the session id (`rollout-<time>-<uuid>`, as Codex names
 * its files), or the session id itself.
 */
export function codexSessionMeta(
  sessionId: string,
  fields: Readonly<Record<string, unknown>> | undefined,
  timestamp: string,
): TurnRecord {
  return {
    type: 'session_meta',
    data: {
      payload: {
        id: UUID_AT_END.exec(sessionId)?.[0] ?? sessionId,
        timestamp,
        cwd: fields?.cwd,
        originator: 'sessiontape',
        cli_version: fields?.version,
        source: 'cli',
        ...(fields?.gitBranch ? { git: { branch: fields.gitBranch } } : {}),
      },
    },
  }
}

function codexUsage(counts: Counts): Record<string, number> {
  return {
    input_tokens: counts.input,
    cached_input_tokens: counts.cached,
    output_tokens: counts.output,
    reasoning_output_tokens: counts.reasoning,
    total_tokens: counts.input + counts.output,
  }
}

function ownRecord(turn: Turn): TurnRecord {
  switch (turn.kind) {
    case 'user':
      return { type: 'user', data: { text: turn.text } }
    case 'assistant':
      return {
        type: 'assistant',
        data: {
          text: turn.text,
          ...(turn.model === undefined ? {} : { model: turn.model }),
          ...(turn.usage === undefined ? {} : { usage: normalizedUsage(turn.usage) }),
          ...(turn.messageId === undefined ? {} : { messageId: turn.messageId }),
          ...(turn.requestId === undefined ? {} : { requestId: turn.requestId }),
        },
      }
    case 'thinking':
      return { type: 'thinking', data: { text: turn.text } }
    case 'tool-call':
      return { type: 'tool_call', data: { callId: turn.callId, name: turn.name, input: turn.input ?? null } }
    case 'tool-result':
      return {
        type: 'tool_result',
        data: { callId: turn.callId, output: turn.output, isError: turn.isError ?? false },
      }
    case 'title':
      return { type: 'title', data: { title: turn.title } }
  }
}

function normalizedUsage(usage: TurnUsage): Record<string, number> {
  return {
    inputTokens: usage.inputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
    outputTokens: usage.outputTokens,
    reasoningOutputTokens: usage.reasoningOutputTokens ?? 0,
  }
}

function claudeRecords(turn: Turn): TurnRecord[] {
  const assistant = (content: readonly object[], extra: Record<string, unknown> = {}): TurnRecord => ({
    type: 'assistant',
    data: {
      ...extra,
      message: { type: 'message', role: 'assistant', content, stop_reason: null, stop_sequence: null },
    },
  })
  switch (turn.kind) {
    case 'user':
      return [{ type: 'user', data: { message: { role: 'user', content: turn.text } } }]
    case 'thinking':
      return [assistant([{ type: 'thinking', thinking: turn.text, signature: '' }])]
    case 'tool-call':
      return [assistant([{ type: 'tool_use', id: turn.callId, name: turn.name, input: turn.input ?? {} }])]
    case 'tool-result':
      return [
        {
          type: 'user',
          data: {
            message: {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: turn.callId,
                  content: turn.output,
                  is_error: turn.isError ?? false,
                },
              ],
            },
          },
        },
      ]
    case 'title':
      return [
        { type: 'title', data: { title: turn.title } },
        { type: 'custom-title', data: { customTitle: turn.title } },
      ]
    case 'assistant': {
      const message: Record<string, unknown> = {
        ...(turn.messageId === undefined ? {} : { id: turn.messageId }),
        type: 'message',
        role: 'assistant',
        ...(turn.model === undefined ? {} : { model: turn.model }),
        content: [{ type: 'text', text: turn.text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
      }
      if (turn.usage !== undefined) {
        const cacheRead = turn.usage.cacheReadInputTokens ?? 0
        const cacheCreation = turn.usage.cacheCreationInputTokens ?? 0
        message.usage = {
          // Anthropic's input_tokens leaves out what was read from or written to the cache.
          input_tokens: turn.usage.inputTokens - cacheRead - cacheCreation,
          cache_creation_input_tokens: cacheCreation,
          cache_read_input_tokens: cacheRead,
          output_tokens: turn.usage.outputTokens,
        }
      }
      return [
        {
          type: 'assistant',
          data: { ...(turn.requestId === undefined ? {} : { requestId: turn.requestId }), message },
        },
      ]
    }
  }
}

const TURN_KINDS: ReadonlySet<string> = new Set<TurnKind>([
  'user',
  'assistant',
  'thinking',
  'tool-call',
  'tool-result',
  'title',
])

/** Validates a turn at the call, with the shared message template. */
function checkTurn(turn: Turn): void {
  if (turn === null || typeof turn !== 'object') fail('turn', 'an object', turn)
  if (!TURN_KINDS.has(turn.kind)) fail('turn.kind', `one of ${[...TURN_KINDS].join(', ')}`, turn.kind)
  const text = (name: string, value: unknown): void => {
    if (typeof value !== 'string') fail(`turn.${name}`, 'a string', value)
  }
  switch (turn.kind) {
    case 'user':
    case 'thinking':
    case 'assistant':
      text('text', turn.text)
      break
    case 'title':
      text('title', turn.title)
      break
    case 'tool-call':
      text('callId', turn.callId)
      text('name', turn.name)
      break
    case 'tool-result':
      text('callId', turn.callId)
      text('output', turn.output)
      if (turn.isError !== undefined && typeof turn.isError !== 'boolean')
        fail('turn.isError', 'a boolean', turn.isError)
      break
  }
  if (turn.kind === 'assistant') {
    if (turn.model !== undefined) text('model', turn.model)
    if (turn.messageId !== undefined) text('messageId', turn.messageId)
    if (turn.requestId !== undefined) text('requestId', turn.requestId)
    if (turn.usage !== undefined) checkUsage(turn.usage)
  }
}

function checkUsage(usage: TurnUsage): void {
  if (usage === null || typeof usage !== 'object') fail('turn.usage', 'an object', usage)
  for (const name of [
    'inputTokens',
    'outputTokens',
    'cacheReadInputTokens',
    'cacheCreationInputTokens',
    'reasoningOutputTokens',
  ] as const) {
    const value = usage[name]
    if (value === undefined && name !== 'inputTokens' && name !== 'outputTokens') continue
    if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))
      fail(`turn.usage.${name}`, 'a whole number ≥ 0', value)
  }
  const cached = (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0)
  if (cached > usage.inputTokens)
    fail(
      'turn.usage.inputTokens',
      `at least the cached tokens (${cached}): it counts every input token`,
      usage.inputTokens,
    )
  if ((usage.reasoningOutputTokens ?? 0) > usage.outputTokens)
    fail(
      'turn.usage.outputTokens',
      'at least reasoningOutputTokens: it counts every output token',
      usage.outputTokens,
    )
}

function fail(name: string, expected: string, value: unknown): never {
  throw new InvalidRecordError(
    `Expected \`${name}\` to be ${expected}, got \`${String(value)}\` (${typeof value})`,
  )
}
