import type { ServerResponse } from 'node:http'
import { arr, chunks, rec, sendEvent, sendJson, startSse, textOf } from './sse.js'
import type { ResponsePlan, Wire } from './wire.js'

/** Anthropic Messages (`POST /v1/messages`), as Claude Code and Copilot's anthropic provider call it. */

function usageBody(plan: ResponsePlan): Record<string, number> {
  const u = plan.usage
  return {
    input_tokens: u.fresh,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    output_tokens: u.output,
  }
}

function blocks(plan: ResponsePlan): Record<string, unknown>[] {
  const r = plan.reply
  const text = { type: 'text', text: r.text }
  if (r.kind !== 'tool') return [text]
  return [text, { type: 'tool_use', id: `toolu_conf_${plan.seq}`, name: r.name, input: r.args }]
}

function stream(res: ServerResponse, plan: ResponsePlan): void {
  const headers: Record<string, string> = plan.requestId === undefined ? {} : { 'request-id': plan.requestId }
  startSse(res, headers)
  const start = { ...usageBody(plan), output_tokens: 1 }
  const message = { id: plan.responseId, type: 'message', role: 'assistant', model: plan.model, content: [] }
  sendEvent(
    res,
    { type: 'message_start', message: { ...message, stop_reason: null, usage: start } },
    'message_start',
  )
  const all = blocks(plan)
  for (const [index, block] of all.entries()) {
    if (block['type'] === 'text') {
      sendEvent(
        res,
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        'content_block_start',
      )
      for (const piece of chunks(String(block['text']))) {
        const delta = { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }
        sendEvent(res, delta, 'content_block_delta')
      }
      // A stall stops inside its first text block: no block ends, no usage beyond message_start.
      if (plan.reply.kind === 'stall') return
    } else {
      const head = { ...block, input: {} }
      sendEvent(res, { type: 'content_block_start', index, content_block: head }, 'content_block_start')
      const json = JSON.stringify(block['input'])
      sendEvent(
        res,
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } },
        'content_block_delta',
      )
    }
    sendEvent(res, { type: 'content_block_stop', index }, 'content_block_stop')
  }
  const stopReason = plan.reply.kind === 'tool' ? 'tool_use' : 'end_turn'
  const delta = {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: usageBody(plan),
  }
  sendEvent(res, delta, 'message_delta')
  sendEvent(res, { type: 'message_stop' }, 'message_stop')
  res.end()
}

export const anthropicWire: Wire = {
  api: 'anthropic',
  name: 'anthropic-messages',
  view(body) {
    const messages = arr(body['messages'])
    // Claude Code puts `role: "system"` messages (its environment) after the user's: the turn is the last user one.
    const last = rec(messages.findLast((m) => rec(m)['role'] === 'user'))
    const content = arr(last['content'])
    const afterToolResult = content.some((part) => rec(part)['type'] === 'tool_result')
    const tools = arr(body['tools']).map((t) => ({
      name: String(rec(t)['name']),
      parameters: rec(t)['input_schema'],
    }))
    const lastUserText = afterToolResult ? '' : textOf(last['content'])
    return { lastUserText, afterToolResult, tools }
  },
  write(res, plan) {
    if (plan.stream || plan.reply.kind === 'stall') return stream(res, plan)
    const headers: Record<string, string> =
      plan.requestId === undefined ? {} : { 'request-id': plan.requestId }
    const stopReason = plan.reply.kind === 'tool' ? 'tool_use' : 'end_turn'
    const body = {
      id: plan.responseId,
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content: blocks(plan),
    }
    sendJson(
      res,
      200,
      { ...body, stop_reason: stopReason, stop_sequence: null, usage: usageBody(plan) },
      headers,
    )
  },
}
