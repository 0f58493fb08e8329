import type { Turn, TurnRecord, TurnUsage } from './turn.js'

/** This package's own records: one per turn, usage normalized. */
export function sessiontapeRecords(turn: Turn): TurnRecord {
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
