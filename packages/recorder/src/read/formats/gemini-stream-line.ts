import type { SessionRecord } from '../../format/record-format.js'
import { notAnObject, parseLineWith, type LineSink } from '../../format/parse-line.js'

/**
 * Gemini CLI's lines one at a time, for a reader that cannot wait for the end of the file (`tail -f`):
 * each message line is shown as written (a message re-appended with its tool calls or tokens shows again;
 * a `$rewindTo` is a metadata line, and nothing already shown is taken back). `readSession` and `show`
 * replay the whole file instead (see GeminiReplay).
 */
export function parseGeminiLine(text: string, line: number, sink: LineSink): number {
  return parseLineWith(classifyGeminiValue, text, line, sink)
}

function classifyGeminiValue(value: unknown, line: number, sink: LineSink): number {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return notAnObject(value, line, sink)
  const object = value as Record<string, unknown>
  if (typeof object.id !== 'string' || object.id.length === 0) {
    sink.metadata?.(object, line)
    return 0
  }
  const record = {
    ...object,
    uuid: object.id,
    parentUuid: null,
    sessionId: typeof object.sessionId === 'string' ? object.sessionId : '',
    timestamp: typeof object.timestamp === 'string' ? object.timestamp : '',
    type: typeof object.type === 'string' ? object.type : '',
  } as SessionRecord
  sink.record(record, line)
  return 1
}
