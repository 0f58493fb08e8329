import type { SessionRecord } from '@sessiontape/recorder'
import type { Agent, ConversationEvent, EventBase, EventImage, SessionInfoEvent } from '../model.js'

/** An event before the reader gives it its place: everything but the fields every event carries. */
export type Draft = ConversationEvent extends infer E
  ? E extends ConversationEvent
    ? Omit<E, keyof EventBase>
    : never
  : never

/**
 * Maps one format's records and metadata lines onto the conversation model. One mapper reads one file,
 * in file order, so it may keep state (a request already counted, the session fields last reported); the
 * state is small and bounded by the format, never by the file's length, except where a rule needs a set of
 * seen request keys (see usage de-duplication).
 */
export interface FormatMapper {
  readonly agent: Agent
  /** The events of one record, at least one (`other` when the model has no place for it). */
  record(record: SessionRecord, line: number): ConversationEvent[]
  /** The events of one metadata line (a line of another tool's format that is not a record). */
  metadata(value: Readonly<Record<string, unknown>>, line: number): ConversationEvent[]
  /** The events of a message the format's replay took back (the reader's `takenBack`): its usage only. */
  takenBack?(value: Readonly<Record<string, unknown>>, line: number): ConversationEvent[]
}

/** Places a record's drafts: ids from its uuid, chained in order, the first on the record's parent. */
export function recordEvents(
  record: SessionRecord,
  line: number,
  drafts: readonly Draft[],
  sidechain?: { readonly agentId?: string },
): ConversationEvent[] {
  const base = record.uuid === '' ? `L${line}` : record.uuid
  const timestamp = nonEmpty(record.timestamp)
  const out: ConversationEvent[] = []
  const all = drafts.length === 0 ? [{ kind: 'other', type: String(record.type) } as Draft] : drafts
  let parentId: string | null | undefined = record.uuid === '' ? undefined : record.parentUuid
  for (let i = 0; i < all.length; i++) {
    const id = i === 0 ? base : `${base}#${i}`
    out.push({
      ...all[i]!,
      id,
      ...(parentId === undefined ? {} : { parentId }),
      ...(timestamp === undefined ? {} : { timestamp }),
      line,
      ...(sidechain === undefined ? {} : { sidechain }),
      raw: record,
    })
    parentId = id
  }
  return out
}

/** Places a metadata line's drafts: ids from the line number, no parent. */
export function lineEvents(
  value: Readonly<Record<string, unknown>>,
  line: number,
  drafts: readonly Draft[],
): ConversationEvent[] {
  const timestamp = nonEmpty(value.timestamp)
  const all = drafts.length === 0 ? [{ kind: 'other', type: typeName(value) } as Draft] : drafts
  return all.map((draft, i) => ({
    ...draft,
    id: i === 0 ? `L${line}` : `L${line}#${i}`,
    ...(timestamp === undefined ? {} : { timestamp }),
    line,
    raw: value,
  }))
}

/** The name of a metadata line's kind: its `type`, else its first key (`$set`, `$patch`…). */
export function typeName(value: Readonly<Record<string, unknown>>): string {
  if (typeof value.type === 'string' && value.type !== '') return value.type
  return Object.keys(value)[0] ?? ''
}

/** The session's fields as a line holds them (anything; only non-empty strings count). */
export interface SessionFieldValues {
  readonly sessionId?: unknown
  readonly agentVersion?: unknown
  readonly cwd?: unknown
  readonly gitBranch?: unknown
  readonly model?: unknown
  readonly parentSessionId?: unknown
}

/**
 * Emits a `session` event when the session's fields differ from the ones last reported (the first time,
 * and when e.g. the git branch changes mid-session). Fields a record does not carry keep their last value.
 */
export class SessionFields {
  readonly #agent: Agent
  #last: Omit<SessionInfoEvent, keyof EventBase | 'kind' | 'agent'> = {}
  #reported = false

  constructor(agent: Agent) {
    this.#agent = agent
  }

  /** The `session` event for the fields a record carries (at the record's time), or none when nothing changed. */
  seeRecord(fields: SessionFieldValues, record: SessionRecord, line: number): ConversationEvent[] {
    return this.see(fields, line, record, record.timestamp)
  }

  /** The `session` event for these fields of any line, or none when nothing changed. */
  see(fields: SessionFieldValues, line: number, raw: unknown, timestamp?: unknown): ConversationEvent[] {
    const next: Record<string, string> = { ...(this.#last as Record<string, string>) }
    let changed = !this.#reported
    for (const [key, value] of Object.entries(fields)) {
      const text = nonEmpty(value)
      if (text !== undefined && next[key] !== text) {
        next[key] = text
        changed = true
      }
    }
    if (!changed) return []
    this.#last = next
    this.#reported = true
    const at = nonEmpty(timestamp)
    return [
      {
        kind: 'session',
        agent: this.#agent,
        ...next,
        id: `L${line}@session`,
        ...(at === undefined ? {} : { timestamp: at }),
        line,
        raw,
      },
    ]
  }
}

/** A non-empty string, or undefined. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A plain object (not an array, not null), or undefined. */
export function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** Output of any shape as text: strings as they are, text blocks joined, anything else as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    const parts = value.map((item) => {
      const block = objectOf(item)
      if (block !== undefined && typeof block.text === 'string') return block.text
      if (block !== undefined && imageOf(block) !== undefined) return '[image]'
      return typeof item === 'string' ? item : JSON.stringify(item)
    })
    return parts.join('\n')
  }
  return JSON.stringify(value)
}

/** Tool arguments recorded as a JSON string are parsed; anything else is kept as it is. */
export function parsedInput(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    // Not JSON after all (a shell command, free text): keep the string the agent recorded.
    return value
  }
}

/**
 * The image a content block holds, in any of the shapes the formats write: Claude's `{type: 'image',
 * source: {type: 'base64', media_type, data}}`, Codex's `{type: 'input_image', image_url: 'data:…;base64,…'}`,
 * Gemini's and Qwen's `{inlineData: {mimeType, data}}`. Only bytes the transcript itself holds: an image
 * by URL is never fetched.
 */
export function imageOf(value: unknown): EventImage | undefined {
  const block = objectOf(value)
  if (block === undefined) return undefined
  const source = objectOf(block.source)
  if (block.type === 'image' && source?.type === 'base64' && typeof source.data === 'string')
    return { mediaType: textOf(source.media_type), data: source.data }
  const inline = objectOf(block.inlineData)
  if (inline !== undefined && typeof inline.data === 'string')
    return { mediaType: textOf(inline.mimeType), data: inline.data }
  if (block.type === 'input_image' && typeof block.image_url === 'string') {
    const match = /^data:([^;,]*);base64,/.exec(block.image_url)
    if (match !== null) return { mediaType: match[1]!, data: block.image_url.slice(match[0].length) }
  }
  if (block.type === 'image') return { mediaType: '', data: '' }
  return undefined
}

/** The images of a content array (empty for anything else). */
export function imagesIn(value: unknown): EventImage[] {
  if (!Array.isArray(value)) return []
  const images: EventImage[] = []
  for (const item of value) {
    const image = imageOf(item)
    if (image !== undefined && image.data !== '') images.push(image)
  }
  return images
}
