/**
 * Conversation events grouped into turns, the unit both renderers show. A turn starts at each user message
 * of the main conversation and holds everything up to the next one: the assistant's text, thinking, tool
 * calls with their results attached, usage (summed), markers, and a subagent's (sidechain) events nested.
 * Events before the first user message form a turn of their own (role `system`).
 *
 * Built incrementally (`push` returns the turns it completed) so an export streams with flat memory.
 */
import type { ConversationEvent, Usage } from '../model.js'
import { addUsage, ZERO_USAGE } from '../usage/usage.js'

/** What every item carries. */
interface ItemBase {
  /** The event's id. */
  readonly id: string
  readonly ts?: string
  /** Not on the active branch (a rewound or side branch). */
  readonly off?: true
  /** A subagent's (sidechain) item, with its agent id ('' when unknown). */
  readonly sub?: string
}

export type TurnItem =
  | (ItemBase & {
      readonly t: 'text'
      readonly role: 'user' | 'assistant'
      readonly text: string
      readonly model?: string
    })
  | (ItemBase & { readonly t: 'thinking'; readonly text: string })
  | (ItemBase & {
      readonly t: 'tool'
      readonly name: string
      readonly callId: string
      /** The arguments, pretty JSON (a string argument as is). */
      readonly input: string
      /** The result's text, once it arrived. */
      output?: string
      isError?: boolean
    })
  | (ItemBase & {
      readonly t: 'result'
      readonly callId: string
      readonly output: string
      readonly isError: boolean
    })
  | (ItemBase & { readonly t: 'marker'; readonly marker: string; readonly text: string })
  | (ItemBase & { readonly t: 'compaction'; readonly summary?: string })
  | (ItemBase & { readonly t: 'title'; readonly title: string })

export interface Turn {
  /** 1-based. */
  readonly n: number
  readonly role: 'user' | 'system'
  readonly ts?: string
  readonly items: TurnItem[]
  /** Tokens of the model requests in this turn (absent when none were recorded). */
  usage?: Usage
  /** The whole turn is off the active branch. */
  off?: true
}

/** Session facts for a document's header. */
export interface SessionFacts {
  agent?: string
  sessionId?: string
  agentVersion?: string
  cwd?: string
  gitBranch?: string
  model?: string
  parentSessionId?: string
  title?: string
  /** When the first and last event happened. */
  started?: string
  ended?: string
}

/** The session event's fields shown in a document's header. */
const SESSION_FACTS = ['sessionId', 'agentVersion', 'cwd', 'gitBranch', 'model', 'parentSessionId'] as const

/** How much a title is trusted, by who set it (the conversation model's rule: set > generated > summary). */
const TITLE_RANK: Readonly<Record<string, number>> = { set: 3, generated: 2, summary: 1 }

function stringifyInput(input: unknown): string {
  if (typeof input === 'string') return input
  try {
    return JSON.stringify(input, null, 2) ?? String(input)
  } catch {
    // A cycle or a BigInt cannot come from parsed JSON, but `input` is typed unknown: show what we can.
    return String(input)
  }
}

export interface TurnBuilderOptions {
  /** Whether an event is on the active branch; events off it are kept and marked (`off`). */
  readonly onBranch?: (event: ConversationEvent) => boolean
  /** Drop events off the active branch instead of marking them. */
  readonly activeOnly?: boolean
  /** Applied to every text shown (redaction). */
  readonly text?: (text: string) => string
}

export class TurnBuilder {
  readonly facts: SessionFacts = {}
  total: Usage = ZERO_USAGE
  /** Turns completed so far. */
  count = 0
  readonly #options: TurnBuilderOptions
  #current: Turn | undefined
  /** How much the title in `facts` is trusted (TITLE_RANK). */
  #titleRank = -1
  /** Calls of the current turn waiting for their result. */
  #calls = new Map<string, Extract<TurnItem, { t: 'tool' }>>()

  /** Applied to every text shown. */
  readonly #text: (text: string) => string

  constructor(options: TurnBuilderOptions = {}) {
    this.#options = options
    this.#text = options.text ?? ((text: string) => text)
  }

  /** Adds an event; returns the turn it completed, if it started a new one. */
  push(event: ConversationEvent): Turn | undefined {
    // A Gemini request a rewind took back is off the active branch, like a Claude branch left behind.
    const takenBack = event.kind === 'usage' && event.takenBack === true
    const on = !takenBack && (this.#options.onBranch?.(event) ?? true)
    if (!on && this.#options.activeOnly === true) return undefined
    const text = this.#text
    const ts = event.timestamp
    // A format whose records each carry the session's id (ours without a `session` record, Claude Code's,
    // Qwen Code's) names the session even when no session event does; a session event's id wins.
    if (this.facts.sessionId === undefined) {
      const id = (event.raw as { sessionId?: unknown } | null | undefined)?.sessionId
      if (typeof id === 'string' && id !== '') this.facts.sessionId = text(id)
    }
    if (ts !== undefined && !takenBack) {
      this.facts.started ??= ts
      this.facts.ended = ts
    }
    // The fields every item starts with, in one order (one object shape per kind of item).
    const base = (): { id: string; ts?: string; off?: true; sub?: string } => {
      const item: { id: string; ts?: string; off?: true; sub?: string } = { id: event.id }
      if (ts !== undefined) item.ts = ts
      if (!on) item.off = true
      if (event.sidechain !== undefined) item.sub = text(event.sidechain.agentId ?? '')
      return item
    }
    switch (event.kind) {
      case 'session':
        for (const key of SESSION_FACTS) {
          const value = event[key]
          if (value !== undefined) this.facts[key] = text(value)
        }
        this.facts.agent = event.agent
        return undefined
      case 'title': {
        // The page's title prefers one a person set, then the agent's, then a summary; the latest of equals.
        const rank = TITLE_RANK[(event as { source?: string }).source ?? ''] ?? 0
        if (rank >= this.#titleRank) {
          this.facts.title = text(event.title)
          this.#titleRank = rank
        }
        // A title set mid-session is shown where it happened; one before any message only names the page.
        if (this.#current !== undefined)
          this.#add(Object.assign(base(), { t: 'title' as const, title: text(event.title) }))
        return undefined
      }
      case 'usage': {
        this.total = addUsage(this.total, event.usage)
        // A request whose message a rewind took back counts in the total, in no turn (none shows it).
        if (takenBack) return undefined
        const turn = this.#turn(ts)
        turn.usage = addUsage(turn.usage ?? ZERO_USAGE, event.usage)
        if (event.model !== undefined) this.facts.model ??= text(event.model)
        return undefined
      }
      case 'user': {
        const completed = event.sidechain === undefined ? this.#start(event, on) : undefined
        this.#add(
          Object.assign(base(), { t: 'text' as const, role: 'user' as const, text: text(event.text) }),
        )
        return completed
      }
      case 'assistant': {
        const item = Object.assign(base(), {
          t: 'text' as const,
          role: 'assistant' as const,
          text: text(event.text),
        })
        if (event.model !== undefined) {
          const model = text(event.model)
          ;(item as { model?: string }).model = model
          this.facts.model ??= model
        }
        this.#add(item)
        return undefined
      }
      case 'thinking':
        this.#add(Object.assign(base(), { t: 'thinking' as const, text: text(event.text) }))
        return undefined
      case 'tool-call': {
        const item: Extract<TurnItem, { t: 'tool' }> = Object.assign(base(), {
          t: 'tool' as const,
          name: text(event.name),
          callId: event.callId,
          input: text(stringifyInput(event.input)),
        })
        this.#add(item)
        this.#calls.set(event.callId, item)
        return undefined
      }
      case 'tool-result': {
        const call = this.#calls.get(event.callId)
        if (call !== undefined && call.output === undefined) {
          call.output = text(event.output)
          call.isError = event.isError
        } else {
          this.#add(
            Object.assign(base(), {
              t: 'result' as const,
              callId: event.callId,
              output: text(event.output),
              isError: event.isError,
            }),
          )
        }
        return undefined
      }
      case 'compaction':
        this.#add(
          event.summary === undefined
            ? Object.assign(base(), { t: 'compaction' as const })
            : Object.assign(base(), { t: 'compaction' as const, summary: text(event.summary) }),
        )
        return undefined
      case 'marker':
        this.#add(
          Object.assign(base(), { t: 'marker' as const, marker: event.marker, text: text(event.text) }),
        )
        return undefined
      case 'other':
        return undefined
    }
  }

  /** The turn events are being added to (not complete yet: the next user message completes it). */
  get open(): Turn | undefined {
    return this.#current
  }

  /** The last turn, once every event was pushed. */
  finish(): Turn | undefined {
    const last = this.#current
    this.#current = undefined
    this.#calls = new Map()
    return last
  }

  #start(event: ConversationEvent, on: boolean): Turn | undefined {
    const previous = this.#current
    this.#calls = new Map()
    this.#current =
      event.timestamp === undefined
        ? { n: ++this.count, role: 'user', items: [] }
        : { n: ++this.count, role: 'user', ts: event.timestamp, items: [] }
    if (!on) this.#current.off = true
    return previous
  }

  #turn(ts: string | undefined): Turn {
    if (this.#current === undefined) {
      this.#current =
        ts === undefined
          ? { n: ++this.count, role: 'system', items: [] }
          : { n: ++this.count, role: 'system', ts, items: [] }
    }
    return this.#current
  }

  #add(item: TurnItem): void {
    this.#turn(item.ts).items.push(item)
  }
}
