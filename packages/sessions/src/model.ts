/**
 * The conversation model: one typed stream of events for a session, whatever agent wrote it. Every format
 * the recorder reads (ours, Claude Code, Qwen Code, Gemini CLI, Codex CLI, Copilot CLI, Cursor CLI) is
 * mapped onto it once, in `formats/`; usage, export, the viewer and search are built on it and never look at
 * a format's own fields. Each event keeps the record (or metadata line) it came from as `raw`, so nothing
 * a format says is lost to a consumer that needs it.
 */
import type { TranscriptFormat } from '@sessiontape/recorder'

/** Token counts, normalized like OpenTelemetry's `gen_ai.usage.*`. Every field is a whole number ≥ 0. */
export interface Usage {
  /** All input tokens, cached ones included (Claude: input + cache creation + cache read). */
  readonly inputTokens: number
  /** Input tokens read from a prompt cache (a part of `inputTokens`). */
  readonly cacheReadInputTokens: number
  /** Input tokens written to a prompt cache (a part of `inputTokens`). */
  readonly cacheCreationInputTokens: number
  /** All output tokens, reasoning included. */
  readonly outputTokens: number
  /** Reasoning ("thinking") output tokens (a part of `outputTokens`). */
  readonly reasoningOutputTokens: number
  /** `inputTokens + outputTokens`. */
  readonly totalTokens: number
}

/** Who wrote a session: the agent's name as users know it. */
export type Agent =
  'sessiontape' | 'claude-code' | 'qwen-code' | 'gemini-cli' | 'codex-cli' | 'copilot-cli' | 'cursor-cli'

/** What every event carries. */
export interface EventBase {
  /**
   * A stable id within the session: the record's uuid where the format has one, otherwise one derived
   * from the line (`L<line>` or `L<line>.<n>` for the n-th event of a line).
   */
  readonly id: string
  /** The event this one follows in the conversation tree (`null` for a root; absent where unknown). */
  readonly parentId?: string | null
  /** ISO 8601 where the format records a time. */
  readonly timestamp?: string
  /** 1-based line of the file the event came from (0 where there is none, e.g. a Gemini JSON document). */
  readonly line: number
  /** A subagent's / sidechain's turn (Claude `isSidechain`, Cursor subagent files…), with its agent id if known. */
  readonly sidechain?: { readonly agentId?: string }
  /** The record or metadata line the event came from, every field as written. */
  readonly raw: unknown
}

/** Session metadata, as far as the format tells it. Usually first; may repeat when a field changes. */
export interface SessionInfoEvent extends EventBase {
  readonly kind: 'session'
  readonly agent: Agent
  readonly sessionId?: string
  readonly agentVersion?: string
  readonly cwd?: string
  readonly gitBranch?: string
  readonly model?: string
  /** The session this one was forked or resumed from (Codex `forked_from_id`, Claude's earlier file…). */
  readonly parentSessionId?: string
}

export interface UserMessageEvent extends EventBase {
  readonly kind: 'user'
  readonly text: string
}

export interface AssistantMessageEvent extends EventBase {
  readonly kind: 'assistant'
  readonly text: string
  readonly model?: string
}

export interface ThinkingEvent extends EventBase {
  readonly kind: 'thinking'
  readonly text: string
}

export interface ToolCallEvent extends EventBase {
  readonly kind: 'tool-call'
  /** Pairs the call with its result. */
  readonly callId: string
  readonly name: string
  /** The arguments as the agent recorded them (parsed JSON where they were a JSON string). */
  readonly input: unknown
}

export interface ToolResultEvent extends EventBase {
  readonly kind: 'tool-result'
  readonly callId: string
  /** The output as text (structured output is JSON-stringified). */
  readonly output: string
  readonly isError: boolean
}

/** Tokens one model request used, counted once (see usage.ts for each format's rules). */
export interface UsageEvent extends EventBase {
  readonly kind: 'usage'
  readonly model?: string
  readonly usage: Usage
}

/** The context was compacted: what came before is summarized (Claude `compact_boundary`, Codex `compacted`…). */
export interface CompactionEvent extends EventBase {
  readonly kind: 'compaction'
  readonly summary?: string
}

export interface TitleEvent extends EventBase {
  readonly kind: 'title'
  readonly title: string
}

/** A mark in the transcript itself: a `recovered` record, a resume, an error or notice an agent logged. */
export interface MarkerEvent extends EventBase {
  readonly kind: 'marker'
  readonly marker: 'recovered' | 'resumed' | 'error' | 'notice'
  readonly text: string
}

/** A record or metadata line the model has no place for: kept, never a problem. */
export interface OtherEvent extends EventBase {
  readonly kind: 'other'
  /** The format's own type name of the line. */
  readonly type: string
}

export type ConversationEvent =
  | SessionInfoEvent
  | UserMessageEvent
  | AssistantMessageEvent
  | ThinkingEvent
  | ToolCallEvent
  | ToolResultEvent
  | UsageEvent
  | CompactionEvent
  | TitleEvent
  | MarkerEvent
  | OtherEvent

export type EventKind = ConversationEvent['kind']

/** A whole session, as `readConversation()` returns it. */
export interface Conversation {
  readonly file: string
  readonly format: TranscriptFormat
  readonly agent: Agent
  readonly sessionId?: string
  /** Events in file order (Gemini: replay order); the tree is in `id` / `parentId`. */
  readonly events: readonly ConversationEvent[]
  /** The ids of the events on the active branch (the one the session continues from), in order. */
  readonly activeBranch: readonly string[]
  /** What the reader found wrong (the recorder's problems, unchanged). */
  readonly problems: readonly { readonly line: number; readonly kind: string; readonly message: string }[]
}
