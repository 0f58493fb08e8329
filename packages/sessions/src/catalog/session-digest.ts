import type { ConversationEvent, Usage } from '../model.js'

/**
 * What the catalog keeps of a session, accumulated event by event. Plain JSON, so it is saved in the cache
 * as is, and an appended tail continues from it: every field is a count, a min/max, a latest value or a
 * small bounded list, so reading the tail after the saved state gives what reading the whole file gives.
 */
export interface DigestState {
  sessionId?: string
  cwd?: string
  title?: string
  /** Rank of `title`'s source (set 3 > generated 2 > summary 1): a title is replaced by one of equal or higher rank. */
  titleRank: number
  /** Epoch ms of the earliest / latest event time seen; null while none. */
  first: number | null
  last: number | null
  recordCount: number
  /** Prompts a person typed (user messages outside sidechains). */
  turnCount: number
  models: string[]
  usage: { -readonly [K in keyof Usage]: number }
  lastUuid: string | null
  /** Lines the reader found damaged. */
  problemCount: number
  /**
   * The latest request keys counted. A fresh mapper reads an appended tail, so it does not know what was
   * counted before it; Claude repeats a request's usage on consecutive lines only (one line per content
   * block of the message), so the last few keys are enough to count a request split across the boundary
   * once.
   */
  recentRequestKeys: string[]
}

/** Models kept per session: every real session uses a handful; a bound for a hostile file. */
const MAX_MODELS = 16
/**
 * Request keys kept: the last one is what an append needs (the lines of one request are consecutive); a few
 * more cost little. Not more: they were half of the catalog's JSON at 32, and every `list` parses it.
 */
const RECENT_REQUEST_KEYS = 4
const TITLE_RANK = { set: 3, generated: 2, summary: 1 } as const

export function emptyDigest(): DigestState {
  return {
    titleRank: 0,
    first: null,
    last: null,
    recordCount: 0,
    turnCount: 0,
    models: [],
    usage: {
      inputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      outputTokens: 0,
      reasoningOutputTokens: 0,
      totalTokens: 0,
    },
    lastUuid: null,
    problemCount: 0,
    recentRequestKeys: [],
  }
}

/** Adds one event to the digest (mutates `state`: it is owned by the one refresh that reads the file). */
export function digestEvent(state: DigestState, event: ConversationEvent): void {
  if (event.timestamp !== undefined) {
    const at = Date.parse(event.timestamp)
    if (Number.isFinite(at)) {
      if (state.first === null || at < state.first) state.first = at
      if (state.last === null || at > state.last) state.last = at
    }
  }
  switch (event.kind) {
    case 'session':
      if (state.sessionId === undefined && event.sessionId !== undefined && event.sessionId !== '')
        state.sessionId = event.sessionId
      if (event.cwd !== undefined && event.cwd !== '') state.cwd = event.cwd
      addModel(state, event.model)
      break
    case 'user':
      if (event.sidechain === undefined) state.turnCount++
      break
    case 'assistant':
      addModel(state, event.model)
      break
    case 'usage': {
      const key = (event as { requestKey?: string }).requestKey
      if (key !== undefined) {
        if (state.recentRequestKeys.includes(key)) break
        state.recentRequestKeys.push(key)
        if (state.recentRequestKeys.length > RECENT_REQUEST_KEYS)
          state.recentRequestKeys.splice(0, state.recentRequestKeys.length - RECENT_REQUEST_KEYS)
      }
      addModel(state, event.model)
      for (const field of Object.keys(state.usage) as (keyof Usage)[])
        state.usage[field] += event.usage[field]
      break
    }
    case 'title': {
      const source = (event as { source?: keyof typeof TITLE_RANK }).source
      const rank = source === undefined ? TITLE_RANK.set : TITLE_RANK[source]
      if (rank >= state.titleRank && event.title.trim() !== '') {
        state.title = event.title
        state.titleRank = rank
      }
      break
    }
    default:
      break
  }
}

function addModel(state: DigestState, model: string | undefined): void {
  if (model === undefined || model === '' || state.models.includes(model)) return
  if (state.models.length < MAX_MODELS) state.models.push(model)
}
