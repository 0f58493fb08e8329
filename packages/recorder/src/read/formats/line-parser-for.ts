import { parseLine } from '../../format/parse-line.js'
import type { LineParser } from '../torn-line-tracker.js'
import { parseAgentLine } from './agent-lines.js'
import { codexLineParser, type CodexChain } from './codex-lines.js'
import { copilotLineParser } from './copilot-lines.js'
import { cursorLineParser } from './cursor-lines.js'
import { parseGeminiLine } from './gemini-stream-line.js'
import type { TranscriptFormat } from './transcript-format.js'

/**
 * How a line-at-a-time reader (the torn-line tracker) reads `format`: its line parser, and whether a
 * complete last line without a newline is a record (other tools' files) or a torn tail (ours).
 * `gemini-json` is one document, not lines: it has no line parser. Codex and Cursor parsers synthesize
 * uuids from the file's name and chain records, so they are made per read of `filePath` (a Codex segment
 * continues its base's `chain`).
 */
export function lineParserFor(
  format: TranscriptFormat,
  filePath = '',
  chain?: CodexChain,
): { parse: LineParser; completeTail: boolean } | undefined {
  switch (format) {
    case 'sessiontape':
      return { parse: parseLine, completeTail: false }
    case 'claude-code':
    case 'qwen-code':
      return { parse: parseAgentLine, completeTail: true }
    case 'gemini-cli':
      return { parse: parseGeminiLine, completeTail: true }
    case 'codex-cli':
      return { parse: codexLineParser(filePath, chain), completeTail: true }
    case 'copilot-cli':
      return { parse: copilotLineParser(filePath), completeTail: true }
    case 'cursor-cli':
      return { parse: cursorLineParser(filePath), completeTail: true }
    case 'gemini-json':
      return undefined
  }
}
