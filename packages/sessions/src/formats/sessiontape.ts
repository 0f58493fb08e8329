import { RECOVERED_RECORD_TYPE, TITLE_RECORD_TYPE, type SessionRecord } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'
import { fromModelNames, hasTokens } from '../usage/usage.js'
import { claudeCodeMapper } from './claude-code.js'
import { CODEX_RECORD_TYPES, codexCliMapper } from './codex-cli.js'
import {
  lineEvents,
  nonEmpty,
  objectOf,
  parsedInput,
  recordEvents,
  textOf,
  type Draft,
  type FormatMapper,
} from './mapper.js'
import { qwenCodeMapper } from './qwen-code.js'

/**
 * sessiontape's own records (see docs/conversation-model.md, "Our own records"): `user` / `assistant` /
 * `thinking` `{ text }`, `assistant` with `model`, `usage` and `thinking`, `tool_call` `{ callId, name,
 * input }`, `tool_result` `{ callId, output, isError }`, `usage` `{ model, inputTokens, … }` in the model's
 * own names, `title`, `summary`, `compaction`, `session`, `recovered`, `error`, `notice`. A record written
 * with the `claude-code` or `qwen-code` writer profile carries that agent's `message` instead: it is read
 * with that agent's rules (Claude's usage de-duplication included).
 */
export function sessiontapeMapper(): FormatMapper {
  const claude = claudeCodeMapper('sessiontape')
  const qwen = qwenCodeMapper('sessiontape')
  const codex = codexCliMapper('sessiontape')
  return {
    agent: 'sessiontape',
    record(record: SessionRecord, line: number): ConversationEvent[] {
      // Written with the `codex` profile: Codex's rollout lines under our envelope.
      if (CODEX_RECORD_TYPES.has(record.type) && objectOf(record.payload) !== undefined)
        return codex.record(record, line)
      const message = objectOf(record.message)
      if (message !== undefined) {
        return Array.isArray(message.parts) ? qwen.record(record, line) : claude.record(record, line)
      }
      return recordEvents(record, line, ourDrafts(record))
    },
    metadata(value, line) {
      return lineEvents(value, line, [])
    },
  }
}

function ourDrafts(record: SessionRecord): Draft[] {
  const model = nonEmpty(record.model)
  const withModel = model === undefined ? {} : { model }
  switch (record.type) {
    case 'user':
      return [{ kind: 'user', text: textOf(record.text) }]
    case 'session':
    case 'session_start': {
      // `session_start` with `workspace`: the example agent's shape.
      const fields = {
        sessionId: nonEmpty(record.sessionId),
        agentVersion: nonEmpty(record.agentVersion) ?? nonEmpty(record.version),
        cwd: nonEmpty(record.cwd) ?? nonEmpty(record.workspace),
        gitBranch: nonEmpty(record.gitBranch),
        model,
        parentSessionId: nonEmpty(record.parentSessionId),
      }
      const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
      return [{ kind: 'session', agent: 'sessiontape', ...present }]
    }
    case 'assistant': {
      const drafts: Draft[] = []
      if (typeof record.thinking === 'string') drafts.push({ kind: 'thinking', text: record.thinking })
      if (record.text !== undefined)
        drafts.push({ kind: 'assistant', text: textOf(record.text), ...withModel })
      const calls = Array.isArray(record.toolCalls)
        ? record.toolCalls
        : record.toolCall === undefined
          ? []
          : [record.toolCall]
      for (const call of calls) {
        const draft = toolCall(objectOf(call) ?? {})
        drafts.push(draft)
      }
      const usage = objectOf(record.usage)
      if (usage !== undefined) {
        // recordTurn() writes the provider's ids beside the usage: the same request in two files counts once.
        const messageId = nonEmpty(record.messageId)
        const requestId = nonEmpty(record.requestId)
        const requestKey =
          messageId !== undefined && requestId !== undefined ? `${messageId}:${requestId}` : undefined
        drafts.push({
          kind: 'usage',
          ...withModel,
          usage: fromModelNames(usage),
          ...(requestKey === undefined ? {} : { requestKey }),
        })
      }
      if (drafts.length === 0) drafts.push({ kind: 'assistant', text: '', ...withModel })
      return drafts
    }
    case 'thinking':
      return [{ kind: 'thinking', text: textOf(record.text) }]
    case 'tool_call':
      return [toolCall(record)]
    case 'tool_result':
      return [
        {
          kind: 'tool-result',
          callId: textOf(record.callId ?? record.id),
          output: textOf(record.output ?? record.result),
          isError:
            record.isError === true ||
            (record.error !== undefined && record.error !== null && record.error !== false),
        },
      ]
    case 'usage': {
      const usage = fromModelNames(objectOf(record.usage) ?? record)
      return hasTokens(usage) ? [{ kind: 'usage', ...withModel, usage }] : []
    }
    case TITLE_RECORD_TYPE: {
      const title = nonEmpty(record.title)
      return title === undefined ? [] : [{ kind: 'title', title, source: 'set' }]
    }
    case 'summary': {
      const title = nonEmpty(record.summary)
      return title === undefined ? [] : [{ kind: 'title', title, source: 'summary' }]
    }
    case 'compaction': {
      const summary = nonEmpty(record.summary)
      return [{ kind: 'compaction', ...(summary === undefined ? {} : { summary }) }]
    }
    case RECOVERED_RECORD_TYPE:
      return [{ kind: 'marker', marker: 'recovered', text: recoveredText(record) }]
    case 'error':
    case 'notice':
      return [{ kind: 'marker', marker: record.type, text: textOf(record.text ?? record.message) }]
    default:
      return []
  }
}

function toolCall(call: Readonly<Record<string, unknown>>): Draft {
  const { callId, id, name, tool, input, args, ...rest } = call
  return {
    kind: 'tool-call',
    callId: textOf(callId ?? id),
    name: textOf(name ?? tool),
    // The example agent's shape (`{ tool, …arguments }`): the other fields are the input.
    input: parsedInput(input ?? args ?? (Object.keys(rest).length > 0 ? rest : undefined)),
  }
}

function recoveredText(record: SessionRecord): string {
  if (typeof record.tornOffset === 'number' && typeof record.tornLength === 'number')
    return `${record.tornLength} torn byte(s) at offset ${record.tornOffset} recovered (${textOf(record.reason)})`
  return textOf(record.reason)
}
