import type { Turn, TurnRecord } from './turn.js'

// Tool calls whose names a later result may need (a result far behind its call goes without the name).
const MAX_REMEMBERED_CALLS = 256

/** Qwen Code's lines: Gemini API parts under `message.parts`. Remembers tool calls' names for their results. */
export class QwenCodeShapes {
  readonly #callNames = new Map<string, string>()

  recordsOf(turn: Turn): TurnRecord[] {
    const model = (parts: readonly object[], extra: Record<string, unknown> = {}): TurnRecord => ({
      type: 'assistant',
      data: { ...extra, message: { role: 'model', parts } },
    })
    switch (turn.kind) {
      case 'user':
        return [{ type: 'user', data: { message: { role: 'user', parts: [{ text: turn.text }] } } }]
      case 'thinking':
        return [model([{ text: turn.text, thought: true }])]
      case 'tool-call':
        this.#rememberCall(turn.callId, turn.name)
        return [model([{ functionCall: { id: turn.callId, name: turn.name, args: turn.input ?? {} } }])]
      case 'tool-result': {
        const name = this.#callNames.get(turn.callId)
        const isError = turn.isError ?? false
        return [
          {
            type: 'tool_result',
            data: {
              message: {
                role: 'user',
                parts: [
                  {
                    functionResponse: {
                      id: turn.callId,
                      ...(name === undefined ? {} : { name }),
                      response: isError ? { error: turn.output } : { output: turn.output },
                    },
                  },
                ],
              },
              toolCallResult: {
                callId: turn.callId,
                status: isError ? 'error' : 'success',
                resultDisplay: turn.output,
              },
            },
          },
        ]
      }
      case 'title':
        return [{ type: 'title', data: { title: turn.title } }]
      case 'assistant': {
        const extra: Record<string, unknown> = turn.model === undefined ? {} : { model: turn.model }
        if (turn.usage !== undefined) {
          const reasoning = turn.usage.reasoningOutputTokens ?? 0
          extra.usageMetadata = {
            promptTokenCount: turn.usage.inputTokens,
            cachedContentTokenCount: turn.usage.cacheReadInputTokens ?? 0,
            candidatesTokenCount: turn.usage.outputTokens - reasoning,
            thoughtsTokenCount: reasoning,
            totalTokenCount: turn.usage.inputTokens + turn.usage.outputTokens,
          }
        }
        return [model([{ text: turn.text }], extra)]
      }
    }
  }

  /** Qwen's tool results name their function: remembered from the call, for a bounded number of calls. */
  #rememberCall(callId: string, name: string): void {
    if (this.#callNames.size >= MAX_REMEMBERED_CALLS) {
      const oldest = this.#callNames.keys().next()
      if (oldest.done !== true) this.#callNames.delete(oldest.value)
    }
    this.#callNames.set(callId, name)
  }
}
