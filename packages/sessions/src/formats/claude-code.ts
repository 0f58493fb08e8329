import type { SessionRecord } from '@sessiontape/recorder'
import type { Agent, ConversationEvent } from '../model.js'
import { ClaudeUsage } from '../usage/claude-usage.js'
import {
  lineEvents,
  nonEmpty,
  imagesIn,
  objectOf,
  recordEvents,
  SessionFields,
  textOf,
  type Draft,
  type FormatMapper,
} from './mapper.js'

/**
 * Claude Code (`~/.claude/projects/<project>/<session>.jsonl`). A model response is written as one record
 * per content block (text, thinking, tool_use), each repeating the response's `message.usage` (partial on
 * the earlier lines): a response is one request, its last line's figures (`ClaudeUsage`, docs/usage.md).
 * Usage can also sit on a line that is not a record (no uuid): counted too.
 * Tool results come back inside `user` records as `tool_result` blocks. `system` records of subtype
 * `compact_boundary` mark a compaction; the summary Claude writes after it is a `user` record with
 * `isCompactSummary`.
 */
export function claudeCodeMapper(agent: Agent = 'claude-code'): FormatMapper {
  const session = new SessionFields(agent)
  const requests = new ClaudeUsage()
  const usageDraft = (value: Readonly<Record<string, unknown>>): Draft | undefined => requests.draft(value)

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
      const drafts = claudeRecordDrafts(record)
      const usage = usageDraft(record)
      if (usage !== undefined) drafts.push(usage)
      const sidechain =
        record.isSidechain === true
          ? nonEmpty(record.agentId) === undefined
            ? {}
            : { agentId: record.agentId as string }
          : undefined
      return [...head, ...recordEvents(record, line, drafts, sidechain)]
    },
    metadata(value, line) {
      const drafts: Draft[] = []
      const title = claudeTitle(value)
      if (title !== undefined) drafts.push(title)
      const usage = usageDraft(value)
      if (usage !== undefined) drafts.push(usage)
      return lineEvents(value, line, drafts)
    },
  }
}

/** The title a Claude metadata line carries (`custom-title`, `ai-title`, `summary`), if any. */
function claudeTitle(value: Readonly<Record<string, unknown>>): Draft | undefined {
  const text = (field: unknown): string | undefined =>
    typeof field === 'string' && field.trim() !== '' ? field : undefined
  let title: string | undefined
  if (value.type === 'custom-title' && (title = text(value.customTitle) ?? text(value.title)) !== undefined)
    return { kind: 'title', title, source: 'set' }
  if (value.type === 'ai-title' && (title = text(value.aiTitle) ?? text(value.title)) !== undefined)
    return { kind: 'title', title, source: 'generated' }
  if (value.type === 'summary' && (title = text(value.summary)) !== undefined)
    return { kind: 'title', title, source: 'summary' }
  return undefined
}

/**
 * The message events of a Claude-shaped record (also what our own recorder writes with the `claude-code`
 * profile): its content blocks in order. Usage is not included.
 */
export function claudeRecordDrafts(record: Readonly<Record<string, unknown>>): Draft[] {
  const type = record.type
  const message = objectOf(record.message)
  if (type === 'system') return [systemDraft(record)]
  if (message === undefined) return []
  const content = message.content
  const model = nonEmpty(message.model)
  const drafts: Draft[] = []
  if (type === 'user' && record.isCompactSummary === true) {
    return [{ kind: 'compaction', summary: textOf(content) }]
  }
  if (type === 'assistant' && record.isApiErrorMessage === true) {
    return [{ kind: 'marker', marker: 'error', text: textOf(content) }]
  }
  if (typeof content === 'string') {
    if (type === 'user') drafts.push({ kind: 'user', text: content })
    else if (type === 'assistant')
      drafts.push({ kind: 'assistant', text: content, ...(model ? { model } : {}) })
    return drafts
  }
  if (!Array.isArray(content)) return drafts
  for (const item of content) {
    const block = objectOf(item)
    if (block === undefined) continue
    switch (block.type) {
      case 'text':
        if (type === 'assistant')
          drafts.push({ kind: 'assistant', text: textOf(block.text), ...(model ? { model } : {}) })
        else drafts.push({ kind: 'user', text: textOf(block.text) })
        break
      case 'thinking':
        drafts.push({ kind: 'thinking', text: textOf(block.thinking) })
        break
      case 'redacted_thinking':
        // The model thought, but the text is encrypted: the event keeps the place, with no text.
        drafts.push({ kind: 'thinking', text: '' })
        break
      case 'tool_use':
      case 'server_tool_use':
        drafts.push({
          kind: 'tool-call',
          callId: textOf(block.id),
          name: textOf(block.name),
          input: block.input,
        })
        break
      case 'tool_result': {
        const output = textOf(block.content)
        const images = imagesIn(block.content)
        const agentId = spawnedAgent(record, output)
        drafts.push({
          kind: 'tool-result',
          callId: textOf(block.tool_use_id),
          output,
          isError: block.is_error === true,
          ...(images.length > 0 ? { images } : {}),
          ...(agentId === undefined ? {} : { agentId }),
        })
        break
      }
      case 'image': {
        const images = imagesIn([block])
        const shown = images.length > 0 ? { images } : {}
        drafts.push(
          type === 'assistant'
            ? { kind: 'assistant', text: '[image]', ...(model ? { model } : {}), ...shown }
            : { kind: 'user', text: '[image]', ...shown },
        )
        break
      }
      default:
        if (typeof block.tool_use_id === 'string') {
          // Server tool results (`web_search_tool_result`…) answer a `server_tool_use`.
          drafts.push({
            kind: 'tool-result',
            callId: block.tool_use_id,
            output: textOf(block.content),
            isError: false,
          })
        } else drafts.push({ kind: 'other', type: textOf(block.type) })
    }
  }
  return drafts
}

function systemDraft(record: Readonly<Record<string, unknown>>): Draft {
  if (record.subtype === 'compact_boundary') return { kind: 'compaction' }
  const text = textOf(record.content)
  if (record.level === 'error' || record.subtype === 'api_error')
    return { kind: 'marker', marker: 'error', text }
  return { kind: 'marker', marker: 'notice', text }
}

/**
 * The subagent a Task/Agent call's result names: the record's `toolUseResult.agentId`, else the `agentId: <id>`
 * line Claude Code puts in the result's text. Its transcript is `<session>/subagents/agent-<id>.jsonl`.
 */
function spawnedAgent(record: Readonly<Record<string, unknown>>, output: string): string | undefined {
  const named = nonEmpty(objectOf(record.toolUseResult)?.agentId)
  if (named !== undefined) return named
  return /(?:^|\n)agentId: ([A-Za-z0-9_-]+)/.exec(output)?.[1]
}
