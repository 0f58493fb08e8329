import type { Usage } from '../model.js'
import { count, usageOf } from './usage.js'

/** A usage event's fields, before the reader places it. */
export interface QwenUsageDraft {
  readonly kind: 'usage'
  readonly model?: string
  readonly usage: Usage
  readonly requestKey?: string
}

/**
 * Qwen Code's counts, in the Gemini API's names but filled from an OpenAI-compatible response: the
 * candidates count is the completion, which already holds the reasoning (`thoughtsTokenCount`), unlike the
 * Gemini API's. The record's own total decides where it says: a total of prompt + candidates (the tool-use
 * prompt inside or beside the prompt) keeps the thoughts inside the output; a total that adds the thoughts
 * too means the Gemini API's meaning, and they are added. Without a total, Qwen's meaning.
 */
export function fromQwenCounts(counts: {
  readonly prompt: unknown
  readonly cached: unknown
  readonly toolPrompt: unknown
  readonly candidates: unknown
  readonly thoughts: unknown
  readonly total: unknown
}): Usage {
  const prompt = count(counts.prompt)
  const tool = count(counts.toolPrompt)
  const candidates = count(counts.candidates)
  const thoughts = count(counts.thoughts)
  const total = typeof counts.total === 'number' ? counts.total : undefined
  const thoughtsApart =
    thoughts > 0 &&
    (total === prompt + candidates + thoughts || total === prompt + tool + candidates + thoughts)
  const toolApart = tool > 0 && total !== prompt + candidates && total !== prompt + candidates + thoughts
  return usageOf({
    inputTokens: prompt + (toolApart ? tool : 0),
    cacheReadInputTokens: Math.min(count(counts.cached), prompt),
    outputTokens: candidates + (thoughtsApart ? thoughts : 0),
    reasoningOutputTokens: thoughts,
  })
}

/**
 * The usage of a Qwen Code `ui_telemetry` record, when it is a subagent's model request
 * (`systemPayload.uiEvent` of `event.name` `qwen-code.api_response` with a `subagent_name` or
 * `subagent_id`: the managed memory extractor's, a Task subagent's). Those requests have no assistant record
 * in the session, so this line is their only record. The main conversation's own `api_response` events
 * repeat its assistant records' `usageMetadata` and are not counted again.
 */
export function qwenTelemetryUsage(record: Readonly<Record<string, unknown>>): QwenUsageDraft | undefined {
  const payload = objectOf(record.systemPayload)
  const event = objectOf(payload?.uiEvent)
  if (event === undefined || event['event.name'] !== 'qwen-code.api_response') return undefined
  if (nonEmpty(event.subagent_name) === undefined && nonEmpty(event.subagent_id) === undefined)
    return undefined
  const model = nonEmpty(event.model)
  const responseId = nonEmpty(event.response_id)
  return {
    kind: 'usage',
    ...(model === undefined ? {} : { model }),
    usage: fromQwenCounts({
      prompt: event.input_token_count,
      cached: event.cached_content_token_count,
      toolPrompt: event.tool_token_count,
      candidates: event.output_token_count,
      thoughts: event.thoughts_token_count,
      total: event.total_token_count,
    }),
    ...(responseId === undefined ? {} : { requestKey: `qwen-response:${responseId}` }),
  }
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
