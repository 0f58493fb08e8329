import type { Usage } from '../model.js'
import { fromAnthropic, growthOf, hasTokens, invalidFieldsOf, isCount } from './usage.js'

/** The counts of Anthropic's `usage` object (Claude Code's `message.usage`). */
const FIELDS = [
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'output_tokens',
] as const

/** A usage event's fields, before the reader places it (what a format mapper returns as a draft). */
export interface ClaudeUsageDraft {
  readonly kind: 'usage'
  readonly model?: string
  readonly usage: Usage
  readonly requestKey?: string
  readonly revises?: string
  readonly invalidFields?: readonly { readonly field: string; readonly value: string }[]
}

/**
 * Claude Code's usage, one file at a time. Claude writes a response as one line per content block (thinking,
 * text, tool_use), each repeating `message.usage`; the counts on the earlier lines are partial (the output
 * count grows to the response's final one on its last line). A request is keyed by `message.id` +
 * `requestId`, or by `message.id` alone when the server sent no request id (Claude Code 2.1 then writes no
 * `requestId`). Its first line yields a usage event with the key; each later line whose counts grew yields a
 * `revises` event holding the growth, so the sum of a request's events is its largest figures — its last
 * line's, since counts only grow while a response streams. A line without `message.id` is a request of its
 * own. A field that is not a count is named (`invalidFields`) and adds nothing, unless another line of the
 * request gives it a count.
 */
export class ClaudeUsage {
  /** The figures reported so far per request key (the largest seen of each field); one per request. */
  readonly #reported = new Map<string, Readonly<Record<(typeof FIELDS)[number], number>>>()

  /** The usage draft of a line (a record or a metadata line), or undefined when it holds no usage. */
  draft(value: Readonly<Record<string, unknown>>): ClaudeUsageDraft | undefined {
    const message = objectOf(value.message)
    const usage = objectOf(message?.usage)
    if (usage === undefined || !FIELDS.some((field) => field in usage)) return undefined
    const messageId = nonEmpty(message?.id)
    const requestId = nonEmpty(value.requestId)
    const requestKey =
      messageId === undefined ? undefined : requestId === undefined ? messageId : `${messageId}:${requestId}`
    const model = nonEmpty(message?.model)
    const invalid = invalidFieldsOf(usage, FIELDS, 'message.usage.')
    const named = {
      ...(model === undefined ? {} : { model }),
      ...(invalid.length === 0 ? {} : { invalidFields: invalid }),
    }
    const seen = requestKey === undefined ? undefined : this.#reported.get(requestKey)
    const figures = { ...ZERO_FIGURES }
    for (const field of FIELDS) {
      const given = usage[field]
      figures[field] = Math.max(isCount(given) ? Math.floor(given) : 0, seen?.[field] ?? 0)
    }
    if (requestKey === undefined) return { kind: 'usage', ...named, usage: fromAnthropic(figures) }
    this.#reported.set(requestKey, figures)
    if (seen === undefined) return { kind: 'usage', ...named, usage: fromAnthropic(figures), requestKey }
    const growth = growthOf(fromAnthropic(figures), fromAnthropic(seen))
    if (!hasTokens(growth) && invalid.length === 0) return undefined
    return { kind: 'usage', ...named, usage: growth, revises: requestKey }
  }
}

const ZERO_FIGURES: Record<(typeof FIELDS)[number], number> = {
  input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: 0,
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
