/**
 * Conversation events grouped into turns, the unit both renderers show. A turn starts at each user message
 * of the main conversation and holds everything up to the next one: the assistant's text, thinking, tool
 * calls with their results attached, usage (summed), markers, and a subagent's (sidechain) events nested.
 * Events before the first user message form a turn of their own (role `system`).
 *
 * Built incrementally (`push` returns the turns it completed) so an export streams with flat memory.
 */
import type { ConversationEvent, EventImage, Usage } from '../model.js'
import { addUsage, ZERO_USAGE } from '../usage/usage.js'
import { recordOf } from './branch-pass.js'
import { commandOf } from './commands.js'
import { editDiff } from './diffs.js'
import type { ImageBudget, ShownImage } from './images.js'
import { ansiField, type Styled, type ToolItem, type TurnItem } from './turn-items.js'

export type { TurnItem } from './turn-items.js'

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
  /** Applied to every text shown (redaction, controls made visible). */
  readonly text?: (text: string) => string
  /**
   * Applied instead of `text` to messages, outputs and markers: for a page, terminal styles taken out as
   * runs (ansi.ts). Without it, `text` is used.
   */
  readonly styled?: (text: string) => Styled
  /** Shows images within the page's bounds; without it, images are left out (their `[image]` text stays). */
  readonly images?: ImageBudget
  /** Every image becomes a placeholder saying this (redaction without `--keep-images`). */
  readonly imagePlaceholder?: string
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
  #calls = new Map<string, ToolItem>()
  /** The record whose user message started the current turn (its other blocks continue it). */
  #lastStart = ''
  /** Subagents a call spawned (by agent id): their items are joined under that call. */
  readonly #spawned = new Map<string, ToolItem>()

  /** Applied to every text shown. */
  readonly #text: (text: string) => string
  readonly #styled: (text: string) => Styled

  constructor(options: TurnBuilderOptions = {}) {
    this.#options = options
    const text = options.text ?? ((text: string) => text)
    this.#text = text
    this.#styled = options.styled ?? ((value: string) => ({ text: text(value) }))
  }

  /** The images of an event as shown (placeholders beyond the bounds or under redaction). */
  #images(images: readonly EventImage[] | undefined): ShownImage[] {
    const budget = this.#options.images
    if (images === undefined || budget === undefined) return []
    return images.map((image) => budget.show(image, this.#options.imagePlaceholder))
  }

  /** Adds an event; returns the turn it completed, if it started a new one. */
  push(event: ConversationEvent): Turn | undefined {
    // A Gemini message a rewind took back is off the active branch, like a Claude branch left behind.
    const takenBack = event.takenBack === true
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
        const command = commandOf(event.text)
        // A command's output continues the turn of the command; anything else the user sends starts one.
        // One message's blocks (text, then images) are one turn: only a record's first user event starts it.
        const first = recordOf(event.id) !== this.#lastStart
        const starts =
          first && event.sidechain === undefined && (command === undefined || command.name !== undefined)
        const completed = starts ? this.#start(event, on) : undefined
        if (command !== undefined) {
          const out = command.out === undefined ? undefined : this.#styled(command.out)
          this.#add(
            Object.assign(base(), {
              t: 'command' as const,
              ...(command.name === undefined ? {} : { name: text(command.name) }),
              ...(command.args === undefined ? {} : { args: text(command.args) }),
              ...(out === undefined ? {} : { out: out.text, ...ansiField(out) }),
              ...(command.isError === true ? { isError: true } : {}),
            }),
          )
          return completed
        }
        this.#message(base, 'user', event.text, event.images)
        return completed
      }
      case 'assistant': {
        if (event.model !== undefined) this.facts.model ??= text(event.model)
        this.#message(base, 'assistant', event.text, event.images, event.model)
        return undefined
      }
      case 'thinking':
        this.#add(Object.assign(base(), { t: 'thinking' as const, text: text(event.text) }))
        return undefined
      case 'tool-call': {
        const edit = editDiff(event.name, event.input)
        const item: ToolItem = Object.assign(base(), {
          t: 'tool' as const,
          name: text(event.name),
          callId: event.callId,
          input: text(stringifyInput(edit === undefined ? event.input : edit.input)),
        })
        if (edit !== undefined) item.diff = text(edit.diff)
        this.#add(item)
        this.#calls.set(event.callId, item)
        return undefined
      }
      case 'tool-result': {
        const call = this.#calls.get(event.callId)
        const output = this.#styled(event.output)
        const images = this.#images(event.images)
        if (call !== undefined && call.output === undefined) {
          call.output = output.text
          call.isError = event.isError
          if (output.runs !== undefined) call.ansi = output.runs
          if (images.length > 0) call.images = images
          if (event.agentId !== undefined) {
            call.agent = text(event.agentId)
            this.#spawned.set(call.agent, call)
          }
        } else {
          this.#add(
            Object.assign(base(), {
              t: 'result' as const,
              callId: event.callId,
              output: output.text,
              isError: event.isError,
              ...ansiField(output),
              ...(images.length > 0 ? { images } : {}),
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
      case 'marker': {
        const shown = this.#styled(event.text)
        this.#add(
          Object.assign(base(), {
            t: 'marker' as const,
            marker: event.marker,
            text: shown.text,
            ...ansiField(shown),
          }),
        )
        return undefined
      }
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
    this.#lastStart = recordOf(event.id)
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

  /** A message's text (unless it only stands for its images) and its images. */
  #message(
    base: () => { id: string; ts?: string; off?: true; sub?: string },
    role: 'user' | 'assistant',
    raw: string,
    images: readonly EventImage[] | undefined,
    model?: string,
  ): void {
    const shown = this.#images(images)
    const placeholder = images !== undefined && /^\s*(\[[\w./+-]*\]\s*)+$/.test(raw)
    if (!(shown.length > 0 && placeholder)) {
      const styled = this.#styled(raw)
      this.#add(
        Object.assign(base(), {
          t: 'text' as const,
          role,
          text: styled.text,
          ...(model === undefined ? {} : { model: this.#text(model) }),
          ...ansiField(styled),
        }),
      )
    }
    for (const image of shown) this.#add(Object.assign(base(), { t: 'image' as const, role, image }))
  }

  #add(item: TurnItem): void {
    // A subagent's item goes under the call that spawned it, when that call named it.
    const call = item.sub === undefined ? undefined : this.#spawned.get(item.sub)
    if (call !== undefined) (call.items ??= []).push(item)
    else this.#turn(item.ts).items.push(item)
  }
}
