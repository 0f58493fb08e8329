import type { Turn, TurnRecord, TurnUsage } from './turn.js'

interface Counts {
  input: number
  cached: number
  output: number
  reasoning: number
}

/**
 * Codex CLI's rollout lines. Remembers what Codex's own lines carry from one to the next: the running token
 * totals (`total_token_usage`) and the model the last `turn_context` named.
 */
export class CodexShapes {
  readonly #cwd: string
  readonly #totals: Counts = { input: 0, cached: 0, output: 0, reasoning: 0 }
  #model: string | undefined

  constructor(cwd: string) {
    this.#cwd = cwd
  }

  recordsOf(turn: Turn): TurnRecord[] {
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
        if (turn.model !== undefined && turn.model !== this.#model) {
          this.#model = turn.model
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
