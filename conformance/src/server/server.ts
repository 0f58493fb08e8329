import { appendFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { anthropicWire } from './anthropic.js'
import { geminiWire } from './gemini.js'
import { listenOnLoopback } from './loopback.js'
import { openaiChatWire } from './openai-chat.js'
import { openaiResponsesWire } from './openai-responses.js'
import { decide, normalize, usageFor, type Normalized, type Usage } from './reply.js'
import { rec, sendJson, str } from './sse.js'
import type { Wire } from './wire.js'

/**
 * The scripted model server: Node http on 127.0.0.1 only, a port the OS picks. It answers the four APIs
 * (reply.ts decides what, the wire modules say it in each API's shape) and appends one JSON line per request
 * to its log: the scenario it belongs to, the API, the response id, the reply's kind and the exact usage sent.
 * That log, not any reader of ours, is where the conformance suite's expected usage comes from.
 */

export interface LogEntry {
  readonly seq: number
  /** When the request arrived (ISO 8601). */
  readonly at: string
  readonly scenario: string
  /** anthropic-messages, openai-chat, openai-responses, gemini; `other` for a request that is no model call. */
  readonly api: string
  readonly path: string
  readonly model: string
  readonly stream: boolean
  /** What the request was for, as the server saw it: `json` (a schema-bound side call), `main`, `other`. */
  readonly purpose: 'json' | 'main' | 'other'
  readonly reply?: 'text' | 'tool' | 'stall'
  /**
   * What the request answers: `prompt` (its last user message is one of ours, marked `CONF-`), `tool-result`,
   * or `side` (anything else an agent asks on its own, such as Qwen Code's memory extraction).
   */
  readonly turn?: 'prompt' | 'tool-result' | 'side'
  /** The `CONF-…` tag of the prompt answered (`CONF-SUBTASK` = a subagent's own request), when there is one. */
  readonly tag?: string
  readonly toolName?: string
  readonly text?: string
  readonly responseId?: string
  /** The `request-id` header sent, when the scenario sends one. */
  readonly requestId?: string
  /** The full usage of this request; for a stall, more than was sent (see `normalized`). */
  readonly usage?: Usage
  /** The usage the response actually carried, normalized as `usage --json` reports it; absent if none was sent. */
  readonly normalized?: Normalized
  /** false for a stall: the stream was cut before its usage was complete. */
  readonly completed: boolean
}

export interface ModelServer {
  readonly url: string
  /** Labels the requests that follow; `requestId` = send Anthropic's `request-id` header. */
  setScenario(label: string, options: { readonly requestId: boolean }): void
  readonly entries: readonly LogEntry[]
  /** Resolves when a stall of this scenario has started (the agent is then mid-stream and can be killed). */
  stalled(label: string): Promise<void>
  close(): Promise<void>
}

function route(
  method: string,
  path: string,
): { wire: Wire; model?: string; stream?: boolean } | 'count' | undefined {
  if (method !== 'POST') return undefined
  if (/\/messages\/count_tokens$/.test(path)) return 'count'
  if (/\/messages$/.test(path)) return { wire: anthropicWire }
  if (/\/chat\/completions$/.test(path)) return { wire: openaiChatWire }
  if (/\/responses$/.test(path)) return { wire: openaiResponsesWire }
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path)
  if (gemini === null) return undefined
  if (gemini[2] === 'countTokens') return 'count'
  return { wire: geminiWire, model: gemini[1] ?? 'gemini', stream: gemini[2] === 'streamGenerateContent' }
}

function tagOf(text: string): { tag?: string } {
  const tag = /CONF-[A-Z]+/.exec(text)?.[0]
  return tag === undefined ? {} : { tag }
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = []
  for await (const part of req) parts.push(part as Buffer)
  try {
    return rec(JSON.parse(Buffer.concat(parts).toString('utf8')))
  } catch {
    // Not JSON (a probe, a GET): answered as an unknown request below.
    return {}
  }
}

/** `bodiesDir`: each request's body is saved there as `<seq>.json`, to see what an agent sent when a run fails. */
export async function startServer(logFile: string, bodiesDir?: string): Promise<ModelServer> {
  const entries: LogEntry[] = []
  const stallWaiters = new Map<string, () => void>()
  const stalledLabels = new Set<string>()
  let scenario = 'none'
  let sendRequestId = false
  let seq = 0

  const log = (entry: LogEntry): void => {
    entries.push(entry)
    appendFileSync(logFile, `${JSON.stringify(entry)}\n`)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req)
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const method = req.method ?? 'GET'
    const target = route(method, path)
    seq += 1
    const n = seq
    if (bodiesDir !== undefined)
      writeFileSync(join(bodiesDir, `${n}.json`), JSON.stringify({ path: req.url, body }))
    const base = {
      seq: n,
      at: new Date().toISOString(),
      scenario,
      path: `${method} ${req.url ?? '/'}`,
      stream: false,
      completed: true,
    }
    if (target === undefined || target === 'count') {
      log({ ...base, api: 'other', model: str(body['model'], ''), purpose: 'other' })
      if (target === 'count') return sendJson(res, 200, { input_tokens: 1000, totalTokens: 1000 })
      return sendJson(res, 404, { error: { message: `no such route: ${method} ${path}`, type: 'not_found' } })
    }
    const { wire } = target
    const view = wire.view(body)
    const reply = decide(view, n)
    const usage = usageFor(n, wire.api)
    const model = target.model ?? str(body['model'], 'unknown')
    const stream = target.stream ?? body['stream'] === true
    const responseId =
      wire.api === 'gemini' ? `gemconf${n}` : wire.api === 'anthropic' ? `msg_conf_${n}` : `resp_conf_${n}`
    const chatId = wire.name === 'openai-chat' ? `chatcmpl-conf-${n}` : responseId
    const requestId = wire.api === 'anthropic' && sendRequestId ? `req_conf_${n}` : undefined
    const plan = {
      seq: n,
      reply,
      usage,
      responseId: chatId,
      model,
      stream,
      ...(requestId === undefined ? {} : { requestId }),
    }
    wire.write(res, plan)
    // What the response carried: a stall sends Anthropic's message_start figures (output 1), Gemini's full
    // usageMetadata on every chunk, and no usage at all on the OpenAI APIs (it comes only at the end).
    const sent =
      reply.kind !== 'stall'
        ? usage
        : wire.api === 'anthropic'
          ? { ...usage, output: 1 }
          : wire.api === 'gemini'
            ? usage
            : undefined
    log({
      ...base,
      api: wire.name,
      model,
      stream,
      purpose: view.jsonSchema === undefined ? 'main' : 'json',
      reply: reply.kind,
      ...tagOf(view.lastUserText),
      turn: view.afterToolResult ? 'tool-result' : view.lastUserText.includes('CONF-') ? 'prompt' : 'side',
      ...(reply.kind === 'tool' ? { toolName: reply.name } : {}),
      text: reply.text,
      responseId: chatId,
      ...(requestId === undefined ? {} : { requestId }),
      usage,
      ...(sent === undefined ? {} : { normalized: normalize(sent) }),
      completed: reply.kind !== 'stall',
    })
    if (reply.kind === 'stall') {
      stalledLabels.add(scenario)
      stallWaiters.get(scenario)?.()
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } })
      else res.destroy()
    })
  })
  const loopback = await listenOnLoopback(server)
  return {
    url: loopback.url,
    setScenario(label, options) {
      scenario = label
      sendRequestId = options.requestId
    },
    entries,
    stalled: async (label) => {
      if (stalledLabels.has(label)) return
      await new Promise<void>((resolve) => stallWaiters.set(label, resolve))
    },
    close: () => loopback.close(),
  }
}
