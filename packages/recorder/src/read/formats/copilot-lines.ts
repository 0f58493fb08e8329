import path from 'node:path'
import type { SessionRecord } from '../../format/record-format.js'
import { notAnObject, parseLineWith, type LineSink } from '../../format/parse-line.js'
import type { LineParser } from '../torn-line-tracker.js'

/**
 * A line parser for GitHub Copilot CLI's `events.jsonl`. Every event with an `id` is a record, whatever its
 * `type` (`session.start`, `user.message`, `assistant.message`, `tool.execution_complete`,
 * `session.shutdown`, types added later…): events are chained by `parentId`, so dropping one type would
 * cut the chain. The record is the event as written plus the common view: `uuid` its `id`, `parentUuid`
 * its `parentId`, `sessionId` from `session.start`'s `data.sessionId` (before that, the directory's name,
 * which Copilot names after the session). A line without an `id` is metadata.
 */
export function copilotLineParser(filePath: string): LineParser {
  let sessionId = path.basename(filePath) === 'events.jsonl' ? path.basename(path.dirname(filePath)) : ''
  const classify = (value: unknown, line: number, sink: LineSink): number => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return notAnObject(value, line, sink)
    const object = value as Record<string, unknown>
    const id = object.id
    if (typeof id !== 'string' || id.length === 0) {
      sink.metadata?.(object, line)
      return 0
    }
    if (object.type === 'session.start') {
      const data = object.data as Record<string, unknown> | null | undefined
      const started = typeof data === 'object' && data !== null ? data.sessionId : undefined
      if (typeof started === 'string' && started.length > 0) sessionId = started
    }
    const parent = object.parentId
    object.uuid = id
    object.parentUuid = typeof parent === 'string' && parent.length > 0 ? parent : null
    object.sessionId = sessionId
    if (typeof object.timestamp !== 'string') object.timestamp = ''
    if (typeof object.type !== 'string') object.type = ''
    sink.record(object as SessionRecord, line)
    return 1
  }
  return (text, line, sink) => parseLineWith(classify, text, line, sink)
}
