import type { ServerResponse } from 'node:http'
import { arr, chunks, rec, sendEvent, sendJson, startSse, textOf } from './sse.js'
import type { ResponsePlan, Wire } from './wire.js'

/** OpenAI Chat Completions (`POST /v1/chat/completions`): Qwen Code, OpenCode, Copilot's default provider. */

function usageBody(plan: ResponsePlan): Record<string, unknown> {
  const u = plan.usage
  const prompt = u.fresh + u.cacheRead
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
  }
}

function toolCall(plan: ResponsePlan): Record<string, unknown> | undefined {
  const r = plan.reply
  if (r.kind !== 'tool') return undefined
  return {
    id: `call_conf_${plan.seq}`,
    type: 'function',
    function: { name: r.name, arguments: JSON.stringify(r.args) },
  }
}

function stream(res: ServerResponse, plan: ResponsePlan): void {
  startSse(res, {})
  const base = {
    id: plan.responseId,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
  }
  const send = (delta: Record<string, unknown>, finish: string | null): void =>
    sendEvent(res, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] })
  send({ role: 'assistant', content: '' }, null)
  for (const piece of chunks(plan.reply.text)) send({ content: piece }, null)
  if (plan.reply.kind === 'stall') return
  const call = toolCall(plan)
  if (call !== undefined) send({ tool_calls: [{ index: 0, ...call }] }, null)
  send({}, call === undefined ? 'stop' : 'tool_calls')
  sendEvent(res, { ...base, choices: [], usage: usageBody(plan) })
  sendEvent(res, '[DONE]')
  res.end()
}

export const openaiChatWire: Wire = {
  api: 'openai',
  name: 'openai-chat',
  view(body) {
    const messages = arr(body['messages'])
    const last = rec(messages.findLast((m) => rec(m)['role'] === 'user' || rec(m)['role'] === 'tool'))
    const afterToolResult = last['role'] === 'tool'
    const tools = arr(body['tools']).map((t) => {
      const fn = rec(rec(t)['function'])
      const description = fn['description']
      const tool = { name: String(fn['name']), parameters: fn['parameters'] }
      return typeof description === 'string' ? { ...tool, description } : tool
    })
    const format = rec(body['response_format'])
    const schema = rec(format['json_schema'])['schema']
    const view = { lastUserText: afterToolResult ? '' : textOf(last['content']), afterToolResult, tools }
    return schema === undefined ? view : { ...view, jsonSchema: schema }
  },
  write(res, plan) {
    if (plan.stream || plan.reply.kind === 'stall') return stream(res, plan)
    const call = toolCall(plan)
    const message = {
      role: 'assistant',
      content: plan.reply.text,
      ...(call === undefined ? {} : { tool_calls: [call] }),
    }
    sendJson(res, 200, {
      id: plan.responseId,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: plan.model,
      choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls' }],
      usage: usageBody(plan),
    })
  },
}
