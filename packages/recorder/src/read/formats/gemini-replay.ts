import type { SessionRecord } from '../../format/record-format.js'

/** A message that survived the replay, with the line that last wrote it. */
export interface ReplayedMessage {
  readonly record: SessionRecord
  readonly line: number
  readonly offset: number
  readonly length: number
}

interface Held {
  value: Record<string, unknown>
  line: number
  offset: number
  length: number
  /**
   * What it is charged against the bound: its line's length, or, merged by `$patch` lines, the message's
   * charge before plus each patch line's (the merged object holds at most that much text).
   */
  chars: number
  /** Taken back and shrunk to what a usage count reads (see `#shrinkTakenBack`). */
  countsOnly?: true
}

const TOKEN_FIELDS = ['input', 'output', 'cached', 'thoughts', 'tool', 'total'] as const

/**
 * Gemini CLI's session log replayed the way Gemini CLI reads it (`loadConversationRecord`): not an
 * envelope per line but an upsert log. Sans-I/O: the caller feeds parsed lines in file order.
 *
 * - the header line (`sessionId`, `projectHash`, `startTime`…) and `$set` lines update the session's
 *   metadata; a `$set.messages` array replaces the message list (a checkpoint);
 * - a line with an `id` is a message: a later line with the same id replaces it in place (tokens and
 *   tool calls are added by re-appending the whole message);
 * - `$patch` `{id, …fields}` merges fields into the message with that id;
 * - `$rewindTo: id` deletes that message and everything after it (everything, when the id is unknown).
 *
 * What is left is the conversation, in order; each message's common view is its `id` as `uuid`, the
 * message before it as `parentUuid`, the session's id, its `timestamp` and `type`. A message taken out of
 * the conversation (by a rewind, or missing from a checkpoint) that carries token counts is kept apart
 * ({@link takenBack}): the model requests it stands for were made, and a usage total counts them.
 */
export class GeminiReplay {
  // Insertion order is message order; an upsert keeps its place, as in Gemini's own Map.
  readonly #messages = new Map<string, Held>()
  // Messages taken out of the conversation, by id (a message put again leaves it), whole while the bound
  // allows, else only what a usage count reads (id, type, timestamp, model, the token counts).
  readonly #takenBack = new Map<string, Held>()
  #sessionId: string | undefined
  // UTF-16 code units of the messages held: the replay keeps them all until the end, so it is bounded.
  #heldChars = 0
  readonly #maxChars: number
  #overflowed = false

  constructor(maxChars: number) {
    this.#maxChars = maxChars
  }

  get sessionId(): string | undefined {
    return this.#sessionId
  }

  /** The bound on held messages, in UTF-16 code units. */
  get maxChars(): number {
    return this.#maxChars
  }

  /** True once the bound on held messages was reached: later messages were not kept. */
  get overflowed(): boolean {
    return this.#overflowed
  }

  /**
   * Applies one parsed line. Returns `'message'` for a message line, `'metadata'` for the header,
   * `$set`, `$patch` and `$rewindTo` lines, and `'other'` for an object none of those (kept as metadata
   * by the caller, as Gemini ignores it).
   */
  apply(
    value: Record<string, unknown>,
    line: number,
    offset: number,
    length: number,
  ): 'message' | 'metadata' | 'other' {
    const rewind = value.$rewindTo
    if (typeof rewind === 'string') {
      this.#rewindTo(rewind)
      return 'metadata'
    }
    if (typeof value.id === 'string') {
      this.#put({ value, line, offset, length, chars: length })
      return 'message'
    }
    const set = value.$set
    if (set !== null && typeof set === 'object' && !Array.isArray(set)) {
      const fields = set as Record<string, unknown>
      if (typeof fields.sessionId === 'string') this.#sessionId = fields.sessionId
      if (Array.isArray(fields.messages)) this.#replaceAll(fields.messages, line, offset, length)
      return 'metadata'
    }
    const patch = value.$patch
    if (patch !== null && typeof patch === 'object' && !Array.isArray(patch)) {
      const fields = patch as Record<string, unknown>
      const held = typeof fields.id === 'string' ? this.#messages.get(fields.id) : undefined
      if (held !== undefined) {
        const merged = { ...held.value, ...fields }
        this.#put({ value: merged, line, offset, length, chars: held.chars + length })
      }
      return 'metadata'
    }
    if (typeof value.sessionId === 'string') {
      this.#sessionId = value.sessionId
      if (Array.isArray(value.messages)) this.#replaceAll(value.messages, line, offset, length)
      return 'metadata'
    }
    return 'other'
  }

  /** The messages left, in order, each with its common view. */
  messages(fallbackSessionId: string): ReplayedMessage[] {
    const sessionId = this.#sessionId ?? fallbackSessionId
    const out: ReplayedMessage[] = []
    let parent: string | null = null
    for (const [id, held] of this.#messages) {
      const record = {
        ...held.value,
        uuid: id,
        parentUuid: parent,
        sessionId: typeof held.value.sessionId === 'string' ? held.value.sessionId : sessionId,
        timestamp: typeof held.value.timestamp === 'string' ? held.value.timestamp : '',
        type: typeof held.value.type === 'string' ? held.value.type : '',
      } as SessionRecord
      out.push({ record, line: held.line, offset: held.offset, length: held.length })
      parent = id
    }
    return out
  }

  /**
   * The messages taken out of the conversation, each in its last state before it was taken out (or, past
   * the bound, only its token counts; one without any then dropped), in file order.
   */
  takenBack(): Held[] {
    return [...this.#takenBack.values()].sort((a, b) => a.line - b.line)
  }

  #put(put: Held): void {
    const id = put.value.id as string
    const previous = this.#messages.get(id)
    // Put again (a checkpoint listing it, or the same id after a rewind): its tokens are the message's again.
    const taken = this.#takenBack.get(id)
    const held = carried(put, previous ?? taken)
    const chars = held.chars
    const freed = (previous?.chars ?? 0) + (taken?.chars ?? 0)
    if (this.#heldChars - freed + chars > this.#maxChars) this.#shrinkTakenBack(id)
    if (this.#heldChars - freed + chars > this.#maxChars && chars > (previous?.chars ?? 0)) {
      // Not kept: a new message is left out (the request a taken-back one stood for still counts); a
      // message put again, larger, keeps its earlier state. Either way the bound holds and it is reported.
      this.#overflowed = true
      return
    }
    if (taken !== undefined) {
      this.#takenBack.delete(id)
      this.#heldChars -= taken.chars
    }
    if (previous !== undefined) this.#heldChars -= previous.chars
    this.#heldChars += chars
    this.#messages.set(id, held)
  }

  /**
   * Makes room under the bound at the expense of what was taken back, oldest first: each keeps only what
   * its usage needs (its token counts), or goes when it has none. The conversation is worth more.
   */
  #shrinkTakenBack(except: string): void {
    for (const [id, held] of this.#takenBack) {
      if (this.#heldChars <= this.#maxChars / 2) return
      if (id === except || held.countsOnly === true) continue
      this.#heldChars -= held.chars
      const counts = countsOf(held.value)
      if (counts === undefined) this.#takenBack.delete(id)
      else {
        const chars = JSON.stringify(counts).length
        this.#heldChars += chars
        this.#takenBack.set(id, { ...held, value: counts, chars, countsOnly: true })
      }
    }
  }

  #replaceAll(messages: unknown[], line: number, offset: number, length: number): void {
    for (const [key, held] of this.#messages) this.#takeOut(key, held)
    for (const message of messages) {
      if (message === null || typeof message !== 'object' || Array.isArray(message)) continue
      const value = message as Record<string, unknown>
      if (typeof value.id !== 'string') continue
      // Every message of a checkpoint comes from the same line; its size is shared out for the bound.
      const share = Math.ceil(length / messages.length)
      this.#put({ value, line, offset, length: share, chars: share })
    }
  }

  #rewindTo(id: string): void {
    let found = !this.#messages.has(id)
    for (const [key, held] of this.#messages) {
      if (key === id) found = true
      if (found) this.#takeOut(key, held)
    }
  }

  /**
   * Removes a message from the conversation, kept apart whole (see {@link takenBack}): a rewound prompt and
   * answer are still shown off the branch, and its requests still count. It was charged against the bound
   * while in the conversation and stays charged; {@link #shrinkTakenBack} gives that room back if needed.
   */
  #takeOut(id: string, held: Held): void {
    this.#messages.delete(id)
    this.#takenBack.set(id, held)
  }
}

/**
 * Gemini CLI restates the conversation on `--resume` (a `$set.messages` checkpoint) from the model's
 * history: each message without its `tokens`, `model`, `thoughts` and `toolCalls` (the calls become
 * `functionCall` parts of its content). Those are the same message's, so they are carried over from the
 * message's earlier state: its tokens count once, whatever a later checkpoint drops.
 */
function carried(put: Held, earlier: Held | undefined): Held {
  if (earlier === undefined) return put
  const add: Record<string, unknown> = {}
  for (const key of CARRIED_FIELDS) {
    if (put.value[key] === undefined && earlier.value[key] !== undefined) add[key] = earlier.value[key]
  }
  if (Object.keys(add).length === 0) return put
  return { ...put, value: { ...put.value, ...add }, chars: put.chars + JSON.stringify(add).length }
}

const CARRIED_FIELDS = ['tokens', 'model', 'thoughts', 'toolCalls'] as const

/** What a usage count reads of a message (id, type, timestamp, model, the token counts), if it has tokens. */
function countsOf(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const tokens = message.tokens
  if (tokens === null || typeof tokens !== 'object' || Array.isArray(tokens)) return undefined
  const counts: Record<string, unknown> = {}
  for (const key of TOKEN_FIELDS) {
    const n = (tokens as Record<string, unknown>)[key]
    if (typeof n === 'number') counts[key] = n
  }
  const value: Record<string, unknown> = { id: message.id, tokens: counts }
  for (const key of ['type', 'timestamp', 'model'] as const) {
    if (typeof message[key] === 'string') value[key] = message[key]
  }
  return value
}
