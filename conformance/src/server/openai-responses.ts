import type { ServerResponse } from 'node:http'
import type { OfferedTool } from './reply.js'
import { arr, chunks, rec, sendEvent, sendJson, startSse, str, textOf } from './sse.js'
import type { ResponsePlan, Wire } from './wire.js'

/** OpenAI Responses (`POST /v1/responses`): Codex CLI, Copilot with `COPILOT_PROVIDER_WIRE_API=responses`. */

function usageBody(plan: ResponsePlan): Record<string, unknown> {
  const u = plan.usage
  const input = u.fresh + u.cacheRead
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: input + u.output,
  }
}

function items(plan: ResponsePlan): Record<string, unknown>[] {
  const r = plan.reply
  const message = {
    id: `msg_conf_${plan.seq}`,
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: r.text, annotations: [] }],
  }
  if (r.kind !== 'tool') return [message]
  const call = {
    id: `fc_conf_${plan.seq}`,
    type: 'function_call',
    status: 'completed',
    call_id: `call_conf_${plan.seq}`,
    name: r.name,
    ...(r.namespace === undefined ? {} : { namespace: r.namespace }),
    arguments: JSON.stringify(r.args),
  }
  return [message, call]
}

function stream(res: ServerResponse, plan: ResponsePlan): void {
  startSse(res, {})
  let sequence = 0
  const send = (type: string, fields: Record<string, unknown>): void =>
    sendEvent(res, { type, sequence_number: sequence++, ...fields }, type)
  const response = {
    id: plan.responseId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: plan.model,
  }
  send('response.created', { response: { ...response, status: 'in_progress', output: [] } })
  send('response.in_progress', { response: { ...response, status: 'in_progress', output: [] } })
  const all = items(plan)
  for (const [index, item] of all.entries()) {
    const id = String(item['id'])
    if (item['type'] === 'message') {
      send('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      })
      const part = { type: 'output_text', text: '', annotations: [] }
      send('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part })
      for (const piece of chunks(plan.reply.text)) {
        send('response.output_text.delta', {
          item_id: id,
          output_index: index,
          content_index: 0,
          delta: piece,
        })
      }
      if (plan.reply.kind === 'stall') return
      send('response.output_text.done', {
        item_id: id,
        output_index: index,
        content_index: 0,
        text: plan.reply.text,
      })
      send('response.content_part.done', {
        item_id: id,
        output_index: index,
        content_index: 0,
        part: { ...part, text: plan.reply.text },
      })
    } else {
      send('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      })
      const args = String(item['arguments'])
      send('response.function_call_arguments.delta', { item_id: id, output_index: index, delta: args })
      send('response.function_call_arguments.done', { item_id: id, output_index: index, arguments: args })
    }
    send('response.output_item.done', { output_index: index, item })
  }
  send('response.completed', {
    response: { ...response, status: 'completed', output: all, usage: usageBody(plan) },
  })
  res.end()
}

/** Function tools, with those inside a `namespace` tool (Codex groups its subagent tools so) flattened. */
function offered(tools: unknown[], namespace?: string): OfferedTool[] {
  return tools.flatMap((t): OfferedTool[] => {
    const tool = rec(t)
    if (Array.isArray(tool['tools'])) return offered(tool['tools'] as unknown[], str(tool['name'], ''))
    if (typeof tool['name'] !== 'string') return []
    const found = { name: tool['name'], parameters: tool['parameters'] }
    return [namespace === undefined ? found : { ...found, namespace }]
  })
}

export const openaiResponsesWire: Wire = {
  api: 'openai',
  name: 'openai-responses',
  view(body) {
    const input = arr(body['input'])
    // Skip developer/system items an agent may append after the user's message.
    const last = rec(
      input.findLast((i) => rec(i)['role'] === 'user' || str(rec(i)['type'], '').endsWith('_output')),
    )
    const type = str(last['type'], 'message')
    const afterToolResult = type.endsWith('_output')
    const lastUserText = afterToolResult ? '' : textOf(last['content'])
    return { lastUserText, afterToolResult, tools: offered(arr(body['tools'])) }
  },
  write(res, plan) {
    if (plan.stream || plan.reply.kind === 'stall') return stream(res, plan)
    const body = { id: plan.responseId, object: 'response', status: 'completed', model: plan.model }
    sendJson(res, 200, { ...body, output: items(plan), usage: usageBody(plan) })
  },
}
