import type { SessionRecord } from '@sessiontape/recorder'
import type { Agent, ConversationEvent, Usage } from '../model.js'
import { count, hasTokens, usageOf } from '../usage/usage.js'
import {
  imagesIn,
  lineEvents,
  nonEmpty,
  objectOf,
  parsedInput,
  recordEvents,
  SessionFields,
  textOf,
  type Draft,
  type FormatMapper,
} from './mapper.js'

/** The line types of a Codex rollout (what the recorder's Codex reader yields as records). */
export const CODEX_RECORD_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
])

interface Counts {
  readonly input: number
  readonly cached: number
  readonly output: number
  readonly reasoning: number
}

/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, and files written with the recorder's
 * `codex` profile): `session_meta` → session, `response_item` messages (`input_text` / `output_text`) →
 * user / assistant, `reasoning` → thinking, `function_call` / `custom_tool_call` / `local_shell_call` → tool
 * call, `*_output` → tool result, `compacted` → compaction, `turn_context` names the model of what follows.
 * `event_msg`s repeat the response items for the UI, except `token_count`, the usage: as `@ccusage/codex`
 * counts it — `last_token_usage` when present, else the growth of `total_token_usage` since the previous
 * event (never below 0), cached input capped at the input, an event of all zeros is none, an event whose
 * running totals equal the previous event's is none (a repeat, not a request). OpenAI's counts
 * already include cached input in `input_tokens` and reasoning in `output_tokens`.
 */
export function codexCliMapper(agent: Agent = 'codex-cli'): FormatMapper {
  const session = new SessionFields(agent)
  let model: string | undefined
  let previousTotals: Counts | undefined
  return {
    agent,
    record(record: SessionRecord, line: number): ConversationEvent[] {
      const payload = objectOf(record.payload) ?? {}
      if (record.type === 'session_meta') {
        const git = objectOf(payload.git)
        const head = session.seeRecord(
          {
            sessionId: nonEmpty(payload.id) ?? record.sessionId,
            agentVersion: payload.cli_version,
            cwd: payload.cwd,
            gitBranch: git?.branch,
            parentSessionId: nonEmpty(payload.forked_from_id) ?? nonEmpty(payload.parent_thread_id),
          },
          record,
          line,
        )
        return [...head, ...recordEvents(record, line, [])]
      }
      if (record.type === 'turn_context') model = nonEmpty(payload.model) ?? model
      return recordEvents(record, line, drafts(String(record.type), payload))
    },
    metadata(value, line) {
      return lineEvents(value, line, [])
    },
  }

  function drafts(type: string, payload: Readonly<Record<string, unknown>>): Draft[] {
    switch (type) {
      case 'response_item':
        return itemDrafts(payload)
      case 'compacted': {
        const summary = nonEmpty(payload.message)
        return [{ kind: 'compaction', ...(summary === undefined ? {} : { summary }) }]
      }
      case 'event_msg': {
        if (payload.type !== 'token_count') return []
        const info = objectOf(payload.info)
        const usage = tokenCount(info)
        if (usage === undefined) return []
        const named = nonEmpty(info?.model) ?? nonEmpty(info?.model_name) ?? nonEmpty(payload.model)
        if (named !== undefined) model = named
        // Codex's own running total after this request: the summary checks its requests against it.
        const total = countsOf(objectOf(info?.total_token_usage))
        const agentTotal =
          total === undefined ? undefined : usageOf({ inputTokens: total.input, outputTokens: total.output })
        return [
          {
            kind: 'usage',
            ...(model === undefined ? {} : { model }),
            usage,
            ...(agentTotal === undefined ? {} : { agentTotal }),
          },
        ]
      }
      default:
        return []
    }
  }

  function itemDrafts(payload: Readonly<Record<string, unknown>>): Draft[] {
    switch (payload.type) {
      case 'message': {
        const text = textOf(payload.content)
        const images = imagesIn(payload.content)
        const shown = images.length > 0 ? { images } : {}
        if (payload.role === 'user') return [{ kind: 'user', text, ...shown }]
        if (payload.role === 'assistant')
          return [{ kind: 'assistant', text, ...(model === undefined ? {} : { model }), ...shown }]
        return []
      }
      case 'reasoning': {
        const summary = textOf(payload.summary)
        return [{ kind: 'thinking', text: summary !== '' ? summary : textOf(payload.content) }]
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
        return [
          {
            kind: 'tool-call',
            callId: textOf(payload.call_id ?? payload.id),
            name: nonEmpty(payload.name) ?? String(payload.type),
            input: parsedInput(payload.arguments ?? payload.input ?? payload.action),
          },
        ]
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = objectOf(payload.output)
        return [
          {
            kind: 'tool-result',
            callId: textOf(payload.call_id),
            output: output === undefined ? textOf(payload.output) : textOf(output.content ?? output),
            isError: output?.success === false,
          },
        ]
      }
      default:
        return []
    }
  }

  function tokenCount(info: Readonly<Record<string, unknown>> | undefined): Usage | undefined {
    const last = countsOf(objectOf(info?.last_token_usage))
    const total = countsOf(objectOf(info?.total_token_usage))
    // Codex (Desktop 0.104 most often) writes the event again with the running totals unchanged when
    // nothing was requested (a rate-limit update, a UI refresh): it repeats the previous request's
    // `last_token_usage` too, and is no request. Codex's own totals are the record that confirms it.
    if (total !== undefined && previousTotals !== undefined && sameCounts(total, previousTotals))
      return undefined
    let counts = last
    if (counts === undefined && total !== undefined) counts = growth(total, previousTotals)
    if (total !== undefined) previousTotals = total
    if (counts === undefined) return undefined
    const usage = usageOf({
      inputTokens: counts.input,
      cacheReadInputTokens: Math.min(counts.cached, counts.input),
      outputTokens: counts.output,
      reasoningOutputTokens: counts.reasoning,
    })
    return hasTokens(usage) ? usage : undefined
  }
}

function countsOf(usage: Readonly<Record<string, unknown>> | undefined): Counts | undefined {
  if (usage === undefined) return undefined
  return {
    input: count(usage.input_tokens),
    cached: count(usage.cached_input_tokens ?? usage.cache_read_input_tokens),
    output: count(usage.output_tokens),
    reasoning: count(usage.reasoning_output_tokens),
  }
}

function sameCounts(a: Counts, b: Counts): boolean {
  return a.input === b.input && a.cached === b.cached && a.output === b.output && a.reasoning === b.reasoning
}

function growth(total: Counts, previous: Counts | undefined): Counts {
  return {
    input: Math.max(total.input - (previous?.input ?? 0), 0),
    cached: Math.max(total.cached - (previous?.cached ?? 0), 0),
    output: Math.max(total.output - (previous?.output ?? 0), 0),
    reasoning: Math.max(total.reasoning - (previous?.reasoning ?? 0), 0),
  }
}
