import type { SessionRecord } from '@sessiontape/recorder'
import type { Agent, ConversationEvent } from '../model.js'
import { fromQwenCounts, qwenTelemetryUsage } from '../usage/qwen-usage.js'
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

/**
 * Qwen Code (`~/.qwen/projects/<project>/chats/<session>.jsonl`): Claude's envelope with Gemini's message
 * shape — `message.parts` of `{ text }`, `{ text, thought: true }`, `{ functionCall }`,
 * `{ functionResponse }` — the model on the record, usage in the Gemini API's `usageMetadata` names (one per
 * assistant record: a response is one record; `fromQwenCounts` says what they mean), a subagent's requests
 * in `ui_telemetry` records only (`qwenTelemetryUsage`), tool outcomes in `toolCallResult`, and `system` records
 * told apart by `subtype` (`custom_title`, `chat_compression`, `slash_command`, `ui_telemetry`…).
 */
export function qwenCodeMapper(agent: Agent = 'qwen-code'): FormatMapper {
  const session = new SessionFields(agent)
  return {
    agent,
    record(record: SessionRecord, line: number): ConversationEvent[] {
      const head = session.seeRecord(
        {
          sessionId: record.sessionId,
          agentVersion: record.version,
          cwd: record.cwd,
          gitBranch: record.gitBranch,
        },
        record,
        line,
      )
      return [...head, ...recordEvents(record, line, qwenRecordDrafts(record))]
    },
    metadata(value, line) {
      return lineEvents(value, line, [])
    },
  }
}

/** The events of a Qwen-shaped record (also what our recorder writes with the `qwen-code` profile). */
export function qwenRecordDrafts(record: Readonly<Record<string, unknown>>): Draft[] {
  if (record.type === 'system') return systemDrafts(record)
  const drafts: Draft[] = []
  const message = objectOf(record.message)
  const parts = Array.isArray(message?.parts) ? (message.parts as unknown[]) : []
  const model = nonEmpty(record.model)
  const assistant = record.type === 'assistant' || message?.role === 'model'
  const result = objectOf(record.toolCallResult)
  const responses = parts.filter((part) => objectOf(objectOf(part)?.functionResponse) !== undefined)
  for (const item of parts) {
    const part = objectOf(item)
    if (part === undefined) continue
    const call = objectOf(part.functionCall)
    const response = objectOf(part.functionResponse)
    if (call !== undefined) {
      drafts.push({ kind: 'tool-call', callId: textOf(call.id), name: textOf(call.name), input: call.args })
    } else if (response !== undefined) {
      // The record's `toolCallResult` names the call (a response's own id may differ) when it is the only one.
      // Without either, the tool_result record's own uuid is the only name the call has.
      const callId =
        (responses.length === 1 ? nonEmpty(result?.callId) : undefined) ??
        nonEmpty(response.id) ??
        textOf(record.uuid)
      const display = result?.resultDisplay
      const output =
        responses.length === 1 && typeof display === 'string' ? display : outputOf(response.response)
      const isError = responses.length === 1 && (result?.status === 'error' || isPresent(result?.error))
      drafts.push({ kind: 'tool-result', callId, output, isError })
    } else if (objectOf(part.inlineData) !== undefined) {
      const media = `[${textOf(objectOf(part.inlineData)?.mimeType) || 'inline data'}]`
      const images = imagesIn([part])
      const shown = images.length > 0 ? { images } : {}
      drafts.push(
        assistant
          ? { kind: 'assistant', text: media, ...(model ? { model } : {}), ...shown }
          : { kind: 'user', text: media, ...shown },
      )
    } else if (typeof part.text === 'string') {
      if (part.thought === true) drafts.push({ kind: 'thinking', text: part.text })
      else if (assistant) drafts.push({ kind: 'assistant', text: part.text, ...(model ? { model } : {}) })
      else drafts.push({ kind: 'user', text: part.text })
    }
  }
  const usage = objectOf(record.usageMetadata)
  if (usage !== undefined) {
    drafts.push({
      kind: 'usage',
      ...(model ? { model } : {}),
      usage: fromQwenCounts({
        prompt: usage.promptTokenCount,
        cached: usage.cachedContentTokenCount,
        toolPrompt: usage.toolUsePromptTokenCount,
        candidates: usage.candidatesTokenCount,
        thoughts: usage.thoughtsTokenCount,
        total: usage.totalTokenCount,
      }),
    })
  }
  return drafts
}

function systemDrafts(record: Readonly<Record<string, unknown>>): Draft[] {
  const payload = objectOf(record.systemPayload)
  switch (record.subtype) {
    case 'custom_title': {
      const title = nonEmpty(payload?.customTitle)
      if (title === undefined) return []
      return [{ kind: 'title', title, source: payload?.titleSource === 'auto' ? 'generated' : 'set' }]
    }
    case 'chat_compression': {
      const summary = nonEmpty(payload?.summary)
      return [{ kind: 'compaction', ...(summary === undefined ? {} : { summary }) }]
    }
    case 'ui_telemetry': {
      // A subagent's model request (the memory extractor's) is recorded only here.
      const usage = qwenTelemetryUsage(record)
      return [{ kind: 'other', type: 'system:ui_telemetry' }, ...(usage === undefined ? [] : [usage])]
    }
    default:
      return [{ kind: 'other', type: `system:${textOf(record.subtype)}` }]
  }
}

/** A function response's output: its `output` (or `error`) text when it has one, else the whole as JSON. */
export function outputOf(response: unknown): string {
  const object = objectOf(response)
  if (object !== undefined) {
    if (typeof object.output === 'string') return object.output
    if (typeof object.error === 'string') return object.error
  }
  return textOf(response)
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ''
}
