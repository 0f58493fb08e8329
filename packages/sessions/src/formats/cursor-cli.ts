import type { SessionRecord } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'
import { claudeRecordDrafts } from './claude-code.js'
import { lineEvents, recordEvents, type FormatMapper } from './mapper.js'

/**
 * Cursor CLI (`cursor-agent`) transcripts: `{role, message: {content: [...]}}` lines whose content blocks are
 * Anthropic's (`text`, `thinking`, `tool_use`, `tool_result`), so they are read with Claude Code's block rules,
 * the role standing for Claude's record type. Cursor records no model, usage or time.
 */
export function cursorCliMapper(): FormatMapper {
  return {
    agent: 'cursor-cli',
    record(record: SessionRecord, line: number): ConversationEvent[] {
      const role = typeof record.role === 'string' ? record.role : record.type
      return recordEvents(record, line, claudeRecordDrafts({ ...record, type: role }))
    },
    metadata(value, line) {
      return lineEvents(value, line, [])
    },
  }
}
