import type { SessionRecord } from '../../format/record-format.js'
import { notAnObject, parseLineWith, type LineSink } from '../../format/parse-line.js'

/**
 * Claude Code's and Qwen Code's lines: the same envelope as ours (`uuid`, `parentUuid`, `sessionId`,
 * `timestamp`, `type`) without our format version `v`. A line with a uuid is a record; Claude's lines
 * without one (`summary` with its `leafUuid`, `custom-title`, `ai-title`, `file-history-snapshot`,
 * `queue-operation`, usage-only lines…) are metadata, never damage. Unknown types are records like any
 * other: these tools add types often, and a reader that rejects them breaks on the next release.
 */
export function parseAgentLine(text: string, line: number, sink: LineSink): number {
  return parseLineWith(classifyAgentValue, text, line, sink)
}

function classifyAgentValue(value: unknown, line: number, sink: LineSink): number {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return notAnObject(value, line, sink)
  const object = value as Record<string, unknown>
  const uuid = object.uuid
  if (typeof uuid === 'string' && uuid.length > 0) {
    sink.record(withCommonView(object), line)
    return 1
  }
  sink.metadata?.(object, line)
  return 0
}

/**
 * The record with the common view every reader uses: a field the tool left out is filled in (`parentUuid`
 * null, `sessionId`, `timestamp` and `type` empty strings); every field the line has is kept as it is.
 * The object is the one just parsed, owned by nobody else, so it is completed in place.
 */
function withCommonView(object: Record<string, unknown>): SessionRecord {
  if (!(object.parentUuid === null || typeof object.parentUuid === 'string')) object.parentUuid = null
  if (typeof object.sessionId !== 'string') object.sessionId = ''
  if (typeof object.timestamp !== 'string') object.timestamp = ''
  if (typeof object.type !== 'string') object.type = ''
  return object as SessionRecord
}
