import type { TranscriptFormat } from '@sessiontape/recorder'
import type { Agent } from '../model.js'
import { claudeCodeMapper } from './claude-code.js'
import { codexCliMapper } from './codex-cli.js'
import { copilotCliMapper } from './copilot-cli.js'
import { cursorCliMapper } from './cursor-cli.js'
import { geminiCliMapper } from './gemini-cli.js'
import type { FormatMapper } from './mapper.js'
import { qwenCodeMapper } from './qwen-code.js'
import { sessiontapeMapper } from './sessiontape.js'

/**
 * One mapper per format the recorder reads. A format the recorder learns before this package does is read
 * by the generic mapper: every record and metadata line becomes an `other` event, so nothing is lost.
 */
const MAPPERS: Readonly<Record<string, () => FormatMapper>> = {
  sessiontape: sessiontapeMapper,
  'claude-code': () => claudeCodeMapper(),
  'qwen-code': () => qwenCodeMapper(),
  'gemini-cli': geminiCliMapper,
  'gemini-json': geminiCliMapper,
  'codex-cli': () => codexCliMapper(),
  'copilot-cli': copilotCliMapper,
  'cursor-cli': cursorCliMapper,
}

/** A fresh mapper (mappers keep per-file state) for `format`. */
export function mapperFor(format: TranscriptFormat): FormatMapper {
  const make = MAPPERS[format]
  return make === undefined ? sessiontapeMapper() : make()
}

/** The agent that writes a format. */
export function agentOf(format: TranscriptFormat): Agent {
  if (format === 'gemini-json') return 'gemini-cli'
  return format
}
