import type { Usage } from '../model.js'

/** No tokens. */
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
  totalTokens: 0,
})

/**
 * A count as the model holds it: a whole number ≥ 0 (a missing, negative or non-numeric field is 0). A count
 * above `Number.MAX_SAFE_INTEGER` is 0 too: no request used 9 × 10^15 tokens, so it is damage, and adding
 * one would make every total inexact (1e308 twice is Infinity, which JSON prints as `null`).
 */
export function count(value: unknown): number {
  return typeof value === 'number' && value > 0 && value <= Number.MAX_SAFE_INTEGER ? Math.floor(value) : 0
}

/** True when `value` is a token count as `count()` reads it (0 included). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER
}

/**
 * The fields of `usage` named in `fields` that are present but not a count, as `{ field, value }` with the
 * value as JSON (cut to 40 characters: it is shown to a person, and a hostile file may hold anything).
 */
export function invalidFieldsOf(
  usage: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  prefix: string,
): { field: string; value: string }[] {
  const found: { field: string; value: string }[] = []
  for (const field of fields) {
    if (!(field in usage) || usage[field] === undefined || isCount(usage[field])) continue
    const value = usage[field]
    const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value)
    found.push({ field: `${prefix}${field}`, value: shown.length > 40 ? `${shown.slice(0, 39)}…` : shown })
  }
  return found
}

/** The difference `later − earlier` of each count, never below 0. */
export function growthOf(later: Usage, earlier: Usage): Usage {
  return usageOf({
    inputTokens: Math.max(later.inputTokens - earlier.inputTokens, 0),
    cacheReadInputTokens: Math.max(later.cacheReadInputTokens - earlier.cacheReadInputTokens, 0),
    cacheCreationInputTokens: Math.max(later.cacheCreationInputTokens - earlier.cacheCreationInputTokens, 0),
    outputTokens: Math.max(later.outputTokens - earlier.outputTokens, 0),
    reasoningOutputTokens: Math.max(later.reasoningOutputTokens - earlier.reasoningOutputTokens, 0),
  })
}

/** A `Usage` from its parts; `totalTokens` is always `inputTokens + outputTokens`. */
export function usageOf(parts: {
  readonly inputTokens: number
  readonly cacheReadInputTokens?: number
  readonly cacheCreationInputTokens?: number
  readonly outputTokens: number
  readonly reasoningOutputTokens?: number
}): Usage {
  const inputTokens = count(parts.inputTokens)
  const outputTokens = count(parts.outputTokens)
  return {
    inputTokens,
    cacheReadInputTokens: count(parts.cacheReadInputTokens),
    cacheCreationInputTokens: count(parts.cacheCreationInputTokens),
    outputTokens,
    reasoningOutputTokens: count(parts.reasoningOutputTokens),
    totalTokens: inputTokens + outputTokens,
  }
}

/** The sum of two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens + b.reasoningOutputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  }
}

/**
 * Anthropic's `usage` (Claude Code's `message.usage`): `input_tokens` counts only the input that was
 * neither read from nor written to the cache, so all input is the sum of the three (what ccusage reports as
 * input + cache creation + cache read). Claude does not report thinking tokens apart from the output.
 */
export function fromAnthropic(usage: Readonly<Record<string, unknown>>): Usage {
  const cacheRead = count(usage.cache_read_input_tokens)
  const cacheCreation = count(usage.cache_creation_input_tokens)
  return usageOf({
    inputTokens: count(usage.input_tokens) + cacheRead + cacheCreation,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheCreation,
    outputTokens: count(usage.output_tokens),
  })
}

/**
 * The Gemini API's counts (Qwen Code's `usageMetadata`, Gemini CLI's `tokens` under its own short names):
 * the prompt count includes its cached part; tool-use prompt tokens are input too; thoughts are output
 * the candidates count leaves out (the API's total is prompt + tool-use prompt + candidates + thoughts).
 */
export function fromGeminiCounts(counts: {
  readonly prompt: unknown
  readonly cached: unknown
  readonly toolPrompt: unknown
  readonly candidates: unknown
  readonly thoughts: unknown
}): Usage {
  const thoughts = count(counts.thoughts)
  return usageOf({
    inputTokens: count(counts.prompt) + count(counts.toolPrompt),
    cacheReadInputTokens: count(counts.cached),
    outputTokens: count(counts.candidates) + thoughts,
    reasoningOutputTokens: thoughts,
  })
}

/** Usage already in the model's names (our own records): `inputTokens` includes the cached parts. */
export function fromModelNames(usage: Readonly<Record<string, unknown>>): Usage {
  return usageOf({
    inputTokens: count(usage.inputTokens),
    cacheReadInputTokens: count(usage.cacheReadInputTokens),
    cacheCreationInputTokens: count(usage.cacheCreationInputTokens),
    outputTokens: count(usage.outputTokens),
    reasoningOutputTokens: count(usage.reasoningOutputTokens),
  })
}

/** True when any count is not zero. */
export function hasTokens(usage: Usage): boolean {
  return usage.totalTokens > 0 || usage.cacheReadInputTokens > 0 || usage.cacheCreationInputTokens > 0
}
