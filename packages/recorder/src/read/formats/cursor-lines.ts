import type { SessionRecord } from '../../format/record-format.js'
import { notAnObject, parseLineWith, type LineSink } from '../../format/parse-line.js'
import type { LineParser } from '../torn-line-tracker.js'
import { fileKeyOf, synthesizedUuid } from './synthesized-uuid.js'

/**
 * A line parser for Cursor CLI (`cursor-agent`) transcripts: one `{role, message: {content: [...]}}` line
 * per message, no ids, no times. Each line with a `role` is a record: the line as written plus the common
 * view, `uuid` synthesized as `<file name>:<line>`, `parentUuid` the message before it, `sessionId` the
 * file's name (Cursor names the file after the session), `timestamp` '' unless the line has one, `type`
 * the line's own `type` if it has one, else its `role`. Other lines (`{"type":"turn_ended"}`) are metadata.
 * Stateful (the chain), so one per read.
 */
export function cursorLineParser(filePath: string): LineParser {
  const key = fileKeyOf(filePath)
  let parentUuid: string | null = null
  const classify = (value: unknown, line: number, sink: LineSink): number => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return notAnObject(value, line, sink)
    const object = value as Record<string, unknown>
    const role = object.role
    if (typeof role !== 'string' || role.length === 0) {
      sink.metadata?.(object, line)
      return 0
    }
    const uuid =
      typeof object.uuid === 'string' && object.uuid.length > 0 ? object.uuid : synthesizedUuid(key, line)
    object.uuid = uuid
    object.parentUuid = parentUuid
    object.sessionId = key
    if (typeof object.timestamp !== 'string') object.timestamp = ''
    if (typeof object.type !== 'string') object.type = role
    parentUuid = uuid
    sink.record(object as SessionRecord, line)
    return 1
  }
  return (text, line, sink) => parseLineWith(classify, text, line, sink)
}
