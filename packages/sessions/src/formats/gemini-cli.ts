import type { SessionRecord } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'
import { fromGeminiCounts } from '../usage/usage.js'
import {
  imagesIn,
  lineEvents,
  nonEmpty,
  objectOf,
  recordEvents,
  SessionFields,
  textOf,
  type Draft,
  type FormatMapper,
} from './mapper.js'
import { outputOf } from './qwen-code.js'

/**
 * Gemini CLI (`~/.gemini/tmp/<hash>/chats/session-*.jsonl`, and the older `session-*.json` document). The
 * recorder replays the file, so each message comes once, in its final state: `user` and `gemini` messages
 * (`content` a string or parts), `gemini` with `thoughts` (`subject`, `description`), `toolCalls` (each
 * with its `result` and `status`), `tokens` (`input`, `output`, `cached`, `thoughts`, `tool`, `total`: the
 * Gemini API's counts under short names) and `model`; `info`, `warning` and `error` messages. The header line
 * names the session; `$set.summary` titles it.
 */
export function geminiCliMapper(): FormatMapper {
  const session = new SessionFields('gemini-cli')
  let sessionId: string | undefined
  const calls = new ToolCallsSeen()
  return {
    agent: 'gemini-cli',
    record(record: SessionRecord, line: number): ConversationEvent[] {
      const head =
        sessionId === undefined && nonEmpty(record.sessionId) !== undefined
          ? session.seeRecord({ sessionId: (sessionId = record.sessionId) }, record, line)
          : []
      return [...head, ...recordEvents(record, line, geminiDrafts(record, calls))]
    },
    metadata(value, line) {
      const set = objectOf(value.$set)
      if (set !== undefined) {
        const title = nonEmpty(set.summary)
        return lineEvents(
          value,
          line,
          title === undefined ? [] : [{ kind: 'title', title, source: 'summary' }],
        )
      }
      if (nonEmpty(value.sessionId) !== undefined || nonEmpty(value.projectHash) !== undefined) {
        // The header (or the older document's fields): the session's metadata, and its summary if any.
        sessionId ??= nonEmpty(value.sessionId)
        const events = session.see({ sessionId: value.sessionId }, line, value, value.startTime)
        const title = nonEmpty(value.summary)
        if (title !== undefined)
          events.push(...lineEvents(value, line, [{ kind: 'title', title, source: 'summary' }]))
        return events.length > 0 ? events : lineEvents(value, line, [])
      }
      return lineEvents(value, line, [])
    },
    takenBack(value, line) {
      // A message a rewind took back, as the reader kept it (whole, or only its token counts when the
      // replay's bound needed room): its events marked `takenBack`, off the active branch. Ids
      // `L<line>@<message id>…`: several can come from one line (a checkpoint), which has its own `L<line>`.
      // Its tool calls are its own: they must not hide a later call of the same id from the conversation.
      const uuid = `L${line}@${String(value.id)}`
      const record = {
        ...value,
        uuid,
        parentUuid: null,
        sessionId: sessionId ?? '',
        type: String(value.type),
      }
      return recordEvents(
        record as SessionRecord,
        line,
        geminiDrafts(record as SessionRecord, new ToolCallsSeen()),
      ).map((event) => ({ ...event, takenBack: true as const }))
    },
  }
}

/**
 * Each tool call and each result once per session, by call id: Gemini CLI records a call in the model's
 * message (`toolCalls`, its `result` inside) and the result again as a user message of `functionResponse`
 * parts; a resumed session restates the call as a `functionCall` part and adds a `<id>_response` message.
 */
class ToolCallsSeen {
  readonly #calls = new Set<string>()
  readonly #results = new Set<string>()

  /** True the first time a call id is seen (always for a call without an id: it cannot be matched). */
  call(id: string): boolean {
    return firstTime(this.#calls, id)
  }

  result(id: string): boolean {
    return firstTime(this.#results, id)
  }
}

function firstTime(seen: Set<string>, id: string): boolean {
  if (id === '') return true
  if (seen.has(id)) return false
  seen.add(id)
  return true
}

/** A message's content split into what is said (text, images) and the function parts. */
function partsOf(content: unknown): {
  said: unknown
  calls: Record<string, unknown>[]
  responses: Record<string, unknown>[]
} {
  if (!Array.isArray(content)) return { said: content, calls: [], responses: [] }
  const said: unknown[] = []
  const calls: Record<string, unknown>[] = []
  const responses: Record<string, unknown>[] = []
  for (const item of content) {
    const call = objectOf(objectOf(item)?.functionCall)
    const response = objectOf(objectOf(item)?.functionResponse)
    if (call !== undefined) calls.push(call)
    else if (response !== undefined) responses.push(response)
    else said.push(item)
  }
  return { said, calls, responses }
}

function geminiDrafts(record: Readonly<Record<string, unknown>>, seen: ToolCallsSeen): Draft[] {
  const drafts: Draft[] = []
  const model = nonEmpty(record.model)
  const { said, calls, responses } = partsOf(record.content)
  const results = (): Draft[] =>
    responses.flatMap((response): Draft[] => {
      const callId = textOf(response.id)
      if (!seen.result(callId)) return []
      const output = outputOf(response.response)
      const isError = typeof objectOf(response.response)?.error === 'string'
      return [{ kind: 'tool-result', callId, output, isError }]
    })
  switch (record.type) {
    case 'user': {
      const images = imagesIn(said)
      const text = textOf(said)
      // A message of function responses only is the tools' answer, not something the user said.
      if (responses.length === 0 || text !== '' || images.length > 0)
        drafts.push({ kind: 'user', text, ...(images.length > 0 ? { images } : {}) })
      return [...drafts, ...results()]
    }
    case 'info':
    case 'warning':
      return [{ kind: 'marker', marker: 'notice', text: textOf(record.content) }]
    case 'error':
      return [{ kind: 'marker', marker: 'error', text: textOf(record.content) }]
    case 'gemini':
      break
    default:
      return []
  }
  if (Array.isArray(record.thoughts)) {
    for (const item of record.thoughts) {
      const thought = objectOf(item)
      if (thought === undefined) continue
      const subject = nonEmpty(thought.subject)
      const description = textOf(thought.description)
      drafts.push({
        kind: 'thinking',
        text: subject === undefined ? description : `${subject}: ${description}`,
      })
    }
  }
  const text = textOf(said)
  if (text !== '') drafts.push({ kind: 'assistant', text, ...(model ? { model } : {}) })
  if (Array.isArray(record.toolCalls)) {
    for (const item of record.toolCalls) {
      const call = objectOf(item)
      if (call === undefined) continue
      const callId = textOf(call.id)
      if (seen.call(callId))
        drafts.push({ kind: 'tool-call', callId, name: textOf(call.name), input: call.args })
      if (call.result !== undefined && call.result !== null && seen.result(callId)) {
        drafts.push({
          kind: 'tool-result',
          callId,
          output: resultText(call.result, call.resultDisplay),
          isError: call.status === 'error',
        })
      }
    }
  }
  for (const call of calls) {
    const callId = textOf(call.id)
    if (seen.call(callId))
      drafts.push({ kind: 'tool-call', callId, name: textOf(call.name), input: call.args })
  }
  drafts.push(...results())
  const usage = usageDraft(record)
  if (usage !== undefined) drafts.push(usage)
  return drafts
}

/** The usage a message's `tokens` report (the Gemini API's counts under short names), if it has any. */
function usageDraft(
  message: Readonly<Record<string, unknown>>,
): Extract<Draft, { kind: 'usage' }> | undefined {
  const tokens = objectOf(message.tokens)
  if (tokens === undefined) return undefined
  const model = nonEmpty(message.model)
  return {
    kind: 'usage',
    ...(model ? { model } : {}),
    usage: fromGeminiCounts({
      prompt: tokens.input,
      cached: tokens.cached,
      toolPrompt: tokens.tool,
      candidates: tokens.output,
      thoughts: tokens.thoughts,
    }),
  }
}

/** A tool call's result: the function responses' outputs, else what the CLI displayed. */
function resultText(result: unknown, display: unknown): string {
  if (Array.isArray(result)) {
    const outputs = result.flatMap((item) => {
      const response = objectOf(objectOf(item)?.functionResponse)
      return response === undefined ? [] : [outputOf(response.response)]
    })
    if (outputs.length > 0) return outputs.join('\n')
  }
  if (typeof display === 'string') return display
  return textOf(result)
}
