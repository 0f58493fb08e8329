import type { SessionRecord } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'
import { CopilotUsage } from '../usage/copilot-usage.js'
import {
  lineEvents,
  nonEmpty,
  objectOf,
  parsedInput,
  recordEvents,
  SessionFields,
  textOf,
  type Draft,
  type FormatMapper,
} from './mapper.js'

/**
 * GitHub Copilot CLI (`~/.copilot/session-state/<session>/events.jsonl`): typed events under `data`.
 * `session.start` / `session.resume` → session (version, cwd, branch, selected model),
 * `session.model_change` names the model of what follows, `user.message` → user, `assistant.message` → its
 * `reasoningText` as thinking, its `content` as assistant, each of `toolRequests` as a tool call (a message
 * with a `parentToolCallId` is a sub-agent's: a sidechain), `assistant.reasoning` → thinking,
 * `tool.execution_complete` → tool result, `session.shutdown` → its `modelMetrics` usage (`CopilotUsage`:
 * Copilot's running total per model). The per-message `outputTokens` and the shutdown's `tokenDetails` are
 * not counted: they do not say what their input counts include. Every other event is `other`.
 */
export function copilotCliMapper(): FormatMapper {
  const session = new SessionFields('copilot-cli')
  const usage = new CopilotUsage()
  let model: string | undefined
  return {
    agent: 'copilot-cli',
    record(record: SessionRecord, line: number): ConversationEvent[] {
      const data = objectOf(record.data) ?? {}
      if (record.type === 'session.start' || record.type === 'session.resume') {
        const context = objectOf(data.context)
        model = nonEmpty(data.selectedModel) ?? model
        const head = session.seeRecord(
          {
            sessionId: nonEmpty(data.sessionId) ?? record.sessionId,
            agentVersion: data.copilotVersion,
            cwd: context?.cwd,
            gitBranch: context?.branch,
            model,
          },
          record,
          line,
        )
        return [...head, ...recordEvents(record, line, [])]
      }
      if (record.type === 'session.model_change') model = nonEmpty(data.newModel) ?? model
      const sidechain =
        record.type === 'assistant.message' && nonEmpty(data.parentToolCallId) !== undefined
          ? { agentId: nonEmpty(data.parentToolCallId) }
          : undefined
      const all = [...drafts(String(record.type), data), ...usage.drafts(String(record.type), data)]
      return recordEvents(record, line, all, sidechain)
    },
    metadata(value, line) {
      return lineEvents(value, line, [])
    },
  }

  function drafts(type: string, data: Readonly<Record<string, unknown>>): Draft[] {
    switch (type) {
      case 'user.message':
        return [{ kind: 'user', text: textOf(data.content) }]
      case 'assistant.reasoning':
        return [{ kind: 'thinking', text: textOf(data.content) }]
      case 'assistant.message': {
        const out: Draft[] = []
        const reasoning = nonEmpty(data.reasoningText)
        if (reasoning !== undefined) out.push({ kind: 'thinking', text: reasoning })
        const text = textOf(data.content)
        const named = nonEmpty(data.model) ?? model
        if (text !== '')
          out.push({ kind: 'assistant', text, ...(named === undefined ? {} : { model: named }) })
        if (Array.isArray(data.toolRequests))
          for (const item of data.toolRequests) {
            const request = objectOf(item) ?? {}
            out.push({
              kind: 'tool-call',
              callId: textOf(request.toolCallId),
              name: textOf(request.name),
              input: parsedInput(request.arguments),
            })
          }
        return out
      }
      case 'tool.execution_complete': {
        const result = objectOf(data.result)
        return [
          {
            kind: 'tool-result',
            callId: textOf(data.toolCallId),
            output: textOf(result?.content ?? result?.detailedContent ?? data.error),
            isError: data.success === false,
          },
        ]
      }
      default:
        return []
    }
  }
}
