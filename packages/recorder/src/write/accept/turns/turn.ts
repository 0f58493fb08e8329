/**
 * Typed conversation records: `recorder.recordTurn(turn)` writes a user message, an assistant message (with
 * its model and token usage), thinking, a tool call, a tool result or a title in the shape the recorder's
 * writer profile calls for, so an agent need not invent a schema and every reader (ours, and the agent's
 * own tools for the agent profiles) sees the same turns and counts the same tokens.
 *
 * Each turn becomes one or more `{ type, data }` records; this folder only decides their shapes (one file per profile). The
 * shapes per profile:
 * - `sessiontape`: `user {text}`, `assistant {text, model?, usage?, messageId?}`, `thinking {text}`,
 *   `tool_call {callId, name, input}`, `tool_result {callId, output, isError}`, `title {title}`.
 *   `usage` is normalized (see {@link TurnUsage}): input counts every input token, cached ones included.
 * - `claude-code`: Anthropic Messages content blocks under `message` — `user` with string content,
 *   `assistant` with a `text` / `thinking` / `tool_use` block, `user` with a `tool_result` block; usage
 *   under `message.usage` with Anthropic's split (`input_tokens` excludes cache reads and writes),
 *   `message.id` + `requestId` as ccusage de-duplicates them; a title as our `title` plus Claude's
 *   `custom-title`.
 * - `qwen-code`: Gemini API parts under `message.parts` — `user`, `assistant` (role `model`) with `text`,
 *   `{text, thought: true}` or `functionCall` parts, `tool_result` with a `functionResponse` part and
 *   `toolCallResult`; usage as `usageMetadata` (the prompt count includes its cached part; candidates
 *   exclude thoughts; the Gemini API has no cache-creation count, so that one is not written).
 * - `codex`: rollout lines `{type, payload}` — `response_item` messages (`input_text` / `output_text`),
 *   `reasoning`, `function_call` (arguments as a JSON string) and `function_call_output`; usage as an
 *   `event_msg` `token_count` with running totals and the last request's counts (OpenAI's split:
 *   `input_tokens` includes `cached_input_tokens`, `output_tokens` includes reasoning), preceded by a
 *   `turn_context` whenever the model changes.
 */
import { InvalidRecordError } from '../../../errors.js'

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
  /** When it happened, where the record's own data repeats the time (Codex's session_meta). */
  readonly timestamp?: string
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
export function checkTurn(turn: Turn): void {
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
