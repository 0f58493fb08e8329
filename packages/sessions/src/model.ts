/**
 * The conversation model: one typed stream of events for a session, whatever agent wrote it. Every format
 * the recorder reads (ours, Claude Code, Qwen Code, Gemini CLI, Codex CLI, Copilot CLI, Cursor CLI) is
 * mapped onto it once, in `formats/`; usage, export, the viewer and search are built on it and never look at
 * a format's own fields. Each event keeps the record (or metadata line) it came from as `raw`, so nothing
 * a format says is lost to a consumer that needs it.
 */
import type { ReadProblem, TranscriptFormat } from '@sessiontape/recorder'

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
  | 'sessiontape'
  | 'claude-code'
  | 'qwen-code'
  | 'gemini-cli'
  | 'codex-cli'
  | 'copilot-cli'
  | 'cursor-cli'
  | 'opencode'

/** What every event carries. */
export interface EventBase {
  /**
   * A stable id within the session. A record's events: the first takes the record's uuid, the n-th after it
   * `<uuid>#<n>`. A line that is not a record (metadata) or a record without a uuid: `L<line>`, or
   * `L<line>#<n>` for the n-th after the first. Session metadata derived from a record: `L<line>@session`.
   */
  readonly id: string
  /**
   * The event this one follows in the conversation tree: inside a record, the event before it; a record's
   * first event names the parent record's first event (its uuid), as the agent linked them; `null` for a
   * root; absent where the format says nothing (metadata lines).
   */
  readonly parentId?: string | null
  /** ISO 8601 where the format records a time. */
  readonly timestamp?: string
  /** 1-based line of the file the event came from (0 where there is none, e.g. a Gemini JSON document). */
  readonly line: number
  /** A subagent's / sidechain's turn (Claude `isSidechain`, Cursor subagent files…), with its agent id if known. */
  readonly sidechain?: { readonly agentId?: string }
  /** The record or metadata line the event came from, every field as written. */
  readonly raw: unknown
  /**
   * The message the event belongs to was taken out of the conversation (Gemini CLI's `$rewindTo`, or a
   * checkpoint without it): off the active branch, shown only with every branch; its model request was
   * made, so a usage event so marked still counts in totals, in no turn.
   */
  readonly takenBack?: true
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

/**
 * An image a message or tool result carries, as the transcript holds it: base64 bytes and the media type the
 * agent declared (unchecked: a consumer that shows it must check the bytes itself, see export/images.ts).
 * The event's text keeps an `[image]` stand-in for consumers that show text only.
 */
export interface EventImage {
  readonly mediaType: string
  readonly data: string
}

export interface UserMessageEvent extends EventBase {
  readonly kind: 'user'
  readonly text: string
  /** Images in the message (Claude `image` blocks, Codex `input_image`, Gemini/Qwen `inlineData`). */
  readonly images?: readonly EventImage[]
}

export interface AssistantMessageEvent extends EventBase {
  readonly kind: 'assistant'
  readonly text: string
  readonly model?: string
  readonly images?: readonly EventImage[]
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
  /** Images in the result (a screenshot, an image file read). */
  readonly images?: readonly EventImage[]
  /**
   * The subagent the call spawned, where the format names it (Claude Code's Task/Agent result:
   * `toolUseResult.agentId`, or `agentId: <id>` in its text); its transcript is `agent-<id>.jsonl`.
   */
  readonly agentId?: string
}

/** Tokens one model request used, counted once (see usage.ts for each format's rules). */
export interface UsageEvent extends EventBase {
  readonly kind: 'usage'
  readonly model?: string
  readonly usage: Usage
  /**
   * Identifies the model request where the format can tell (Claude Code: `<message.id>:<requestId>`, or
   * `<message.id>` when the server sent no request id): a later line of the request yields a `revises`
   * event, and a summary over several files counts a key once (Claude copies a request's records into the
   * next file on resume).
   */
  readonly requestKey?: string
  /**
   * Later figures of a request an earlier event of this file reported (its `requestKey`): Claude Code writes
   * one line per content block and the counts on the earlier lines are partial. `usage` is then the growth
   * over what was reported before, so a consumer that adds usage events up gets the last line's figures;
   * a consumer that counts requests does not count this one again.
   */
  readonly revises?: string
  /**
   * How many model requests the event stands for, where the agent records only their sum (Copilot CLI's
   * `session.shutdown` metrics per model). @default 1
   */
  readonly requests?: number
  /**
   * The agent's own running total of the session's input and output tokens after this request, where it
   * keeps one (Codex's `total_token_usage`). `summarizeUsage()` checks the requests it counted against its
   * growth and names a difference in its `problems`.
   */
  readonly agentTotal?: Usage
  /**
   * Usage fields the agent wrote that are not a token count (a string, `null`, a negative number, a number
   * over 2^53 − 1): each adds 0 unless another line of the same request gives that field a count.
   */
  readonly invalidFields?: readonly { readonly field: string; readonly value: string }[]
}

/** The context was compacted: what came before is summarized (Claude `compact_boundary`, Codex `compacted`…). */
export interface CompactionEvent extends EventBase {
  readonly kind: 'compaction'
  readonly summary?: string
}

export interface TitleEvent extends EventBase {
  readonly kind: 'title'
  readonly title: string
  /**
   * Who named the session: `set` by a person (our `title`, Claude `custom-title`, Qwen's manual title),
   * `generated` by the agent (Claude `ai-title`, Qwen's auto title), `summary` of the conversation (Claude
   * `summary`, Gemini `$set.summary`). `Conversation.title` prefers them in that order, the latest of equals.
   */
  readonly source: 'set' | 'generated' | 'summary'
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
  /** The recorder's format of a JSONL file; `opencode` for a session in OpenCode's SQLite store (formats/opencode/). */
  readonly format: TranscriptFormat | 'opencode'
  readonly agent: Agent
  readonly sessionId?: string
  /** The best title (see `TitleEvent.source`), if the session has one. */
  readonly title?: string
  /**
   * Events in file order (Gemini CLI: its metadata lines as read, then the messages left after the replay,
   * in conversation order); the tree is in `id` / `parentId`.
   */
  readonly events: readonly ConversationEvent[]
  /**
   * The ids of the events on the active branch (the one the session continues from), root to leaf: every
   * event of each record on the recorder's `activeBranch()` (crossing Claude compactions, leaving sidechains
   * and rewound turns off). Metadata events are never on it.
   */
  readonly activeBranch: readonly string[]
  /** What the reader found wrong: `readSession()`'s problems, unchanged (sorted by line). */
  readonly problems: readonly ReadProblem[]
}
