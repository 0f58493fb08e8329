import type { ServerResponse } from 'node:http'
import type { Reply, TurnView, Usage } from './reply.js'

/** What one response is made of; the wire module writes it in its API's shape. */
export interface ResponsePlan {
  readonly seq: number
  readonly reply: Reply
  readonly usage: Usage
  /** The response id the body carries (message id, chat completion id, response id, Gemini responseId). */
  readonly responseId: string
  /** Sent as the `request-id` header when set (Anthropic); absent in the scenarios run without one. */
  readonly requestId?: string
  readonly model: string
  readonly stream: boolean
}

export interface Wire {
  readonly api: 'anthropic' | 'openai' | 'gemini'
  /** The name in the log: anthropic-messages, openai-chat, openai-responses, gemini. */
  readonly name: string
  view(body: Record<string, unknown>): TurnView
  /** Writes the response; for a stall, writes its start and returns with the response left open. */
  write(res: ServerResponse, plan: ResponsePlan): void
}
