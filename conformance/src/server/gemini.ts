import type { ServerResponse } from 'node:http'
import type { OfferedTool } from './reply.js'
import { arr, chunks, rec, sendEvent, sendJson, startSse } from './sse.js'
import type { ResponsePlan, Wire } from './wire.js'

/** Gemini `generateContent` / `streamGenerateContent?alt=sse`: Gemini CLI. */

function usageBody(plan: ResponsePlan): Record<string, number> {
  const u = plan.usage
  const prompt = u.fresh + u.cacheRead
  const candidates = u.output - u.reasoning
  return {
    promptTokenCount: prompt,
    cachedContentTokenCount: u.cacheRead,
    candidatesTokenCount: candidates,
    thoughtsTokenCount: u.reasoning,
    totalTokenCount: prompt + u.output,
  }
}

function parts(plan: ResponsePlan): Record<string, unknown>[] {
  const r = plan.reply
  if (r.kind !== 'tool') return [{ text: r.text }]
  return [{ text: r.text }, { functionCall: { name: r.name, args: r.args } }]
}

function chunk(
  plan: ResponsePlan,
  p: Record<string, unknown>[],
  finish: string | undefined,
): Record<string, unknown> {
  const candidate = {
    content: { role: 'model', parts: p },
    index: 0,
    ...(finish === undefined ? {} : { finishReason: finish }),
  }
  return {
    candidates: [candidate],
    usageMetadata: usageBody(plan),
    modelVersion: plan.model,
    responseId: plan.responseId,
  }
}

function stream(res: ServerResponse, plan: ResponsePlan): void {
  startSse(res, {})
  for (const piece of chunks(plan.reply.text)) sendEvent(res, chunk(plan, [{ text: piece }], undefined))
  if (plan.reply.kind === 'stall') return
  const rest = parts(plan).slice(1)
  sendEvent(res, chunk(plan, rest.length === 0 ? [{ text: '' }] : rest, 'STOP'))
  res.end()
}

function offered(body: Record<string, unknown>): OfferedTool[] {
  return arr(body['tools']).flatMap((t) =>
    arr(rec(t)['functionDeclarations']).map((d) => {
      const decl = rec(d)
      return { name: String(decl['name']), parameters: decl['parametersJsonSchema'] ?? decl['parameters'] }
    }),
  )
}

export const geminiWire: Wire = {
  api: 'gemini',
  name: 'gemini',
  view(body) {
    const contents = arr(body['contents'])
    const last = rec(contents.at(-1))
    const lastParts = arr(last['parts']).map(rec)
    const afterToolResult = lastParts.some((p) => p['functionResponse'] !== undefined)
    const lastUserText = lastParts.map((p) => (typeof p['text'] === 'string' ? p['text'] : '')).join('\n')
    const config = rec(body['generationConfig'] ?? body['config'])
    const schema = config['responseJsonSchema'] ?? config['responseSchema']
    const view = { lastUserText: afterToolResult ? '' : lastUserText, afterToolResult, tools: offered(body) }
    return schema === undefined ? view : { ...view, jsonSchema: schema }
  },
  write(res, plan) {
    if (plan.stream || plan.reply.kind === 'stall') return stream(res, plan)
    sendJson(res, 200, chunk(plan, parts(plan), 'STOP'))
  },
}
