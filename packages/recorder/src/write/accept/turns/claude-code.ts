import type { Turn, TurnRecord } from './turn.js'

/** Claude Code's lines: Anthropic Messages content blocks under `message`. */
export function claudeCodeRecords(turn: Turn): TurnRecord[] {
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
