import type { SessionRecord } from '../../format/record-format.js'
import { notAnObject, parseLineWith, type LineSink } from '../../format/parse-line.js'
import type { LineParser } from '../torn-line-tracker.js'
import { fileKeyOf, rolloutNameOf, synthesizedUuid } from './synthesized-uuid.js'

/**
 * The rollout line types that are records: the session's metadata (`session_meta`), the model's items
 * (`response_item`: messages, reasoning, function calls and their outputs…), the events the UI saw
 * (`event_msg`: user and agent messages, `token_count` usage…), each turn's settings (`turn_context`) and
 * compactions (`compacted`, with `replacement_history`). Codex added all of them before 0.50 and still
 * writes them; anything else (a type added later, a line of another shape) is metadata, never a problem.
 */
export const CODEX_RECORD_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
])

/** Where a Codex reader continues from: the chain of an earlier segment of the same thread. */
export interface CodexChain {
  /** uuid of the last record read so far (the parent of the next one), or null. */
  parentUuid: string | null
  /** The thread id (`session_meta.payload.id`) once seen. */
  threadId: string | undefined
}

/**
 * A line parser for one Codex rollout file. Each record is the line as written (`timestamp`, `type`,
 * `payload`, `ordinal` when present, every other field too) plus the common view: `uuid` synthesized as
 * `<rollout id>:<line>` (see synthesizedUuid), `parentUuid` the record before it (the file is one linear
 * history; a later segment continues the chain of its base through `chain`), `sessionId` the thread id.
 * Stateful (it carries the chain), so one per read.
 */
export function codexLineParser(filePath: string, chain: CodexChain = newChain(filePath)): LineParser {
  const key = fileKeyOf(filePath)
  const classify = (value: unknown, line: number, sink: LineSink): number => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return notAnObject(value, line, sink)
    const object = value as Record<string, unknown>
    const type = object.type
    if (typeof type !== 'string' || !CODEX_RECORD_TYPES.has(type)) {
      sink.metadata?.(object, line)
      return 0
    }
    if (type === 'session_meta') {
      const payload = object.payload as Record<string, unknown> | null | undefined
      const id = typeof payload === 'object' && payload !== null ? payload.id : undefined
      if (typeof id === 'string' && id.length > 0) chain.threadId = id
    }
    const uuid =
      typeof object.uuid === 'string' && object.uuid.length > 0 ? object.uuid : synthesizedUuid(key, line)
    object.uuid = uuid
    object.parentUuid = chain.parentUuid
    object.sessionId = chain.threadId ?? ''
    if (typeof object.timestamp !== 'string') object.timestamp = ''
    chain.parentUuid = uuid
    sink.record(object as SessionRecord, line)
    return 1
  }
  return (text, line, sink) => parseLineWith(classify, text, line, sink)
}

/** A chain for a file read on its own: no parent yet, the thread id its name gives (until `session_meta`). */
export function newChain(filePath: string): CodexChain {
  return { parentUuid: null, threadId: rolloutNameOf(filePath)?.threadId }
}
