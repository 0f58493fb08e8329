export { readConversation } from './read-conversation.js'
export { streamConversation } from './stream-conversation.js'
export { SessionsArgumentError } from './errors.js'
export type { ReadConversationOptions, StreamConversationOptions } from './options.js'
export type {
  Agent,
  AssistantMessageEvent,
  CompactionEvent,
  Conversation,
  ConversationEvent,
  EventBase,
  EventKind,
  MarkerEvent,
  OtherEvent,
  SessionInfoEvent,
  ThinkingEvent,
  TitleEvent,
  ToolCallEvent,
  ToolResultEvent,
  Usage,
  UsageEvent,
  UserMessageEvent,
} from './model.js'
export { Redactor, findSecrets, placeholder, type RedactionReport } from './redact/redactor.js'
export type { SecretFinding } from './redact/finding.js'
export { redactRecordHook, type RedactHookOptions } from './redact/recorder-hook.js'
export { renderEvents, type ExportFormat, type RenderOptions, type RenderSummary } from './export/render.js'
export type { Turn, TurnItem, SessionFacts } from './export/turns.js'
export { exportSession, type ExportResult } from './export/export-session.js'
export type { ExportOptions } from './export/options.js'
export { ExportError } from './export/export-error.js'
export { startViewer, type Viewer } from './view/server.js'
export type { ViewerOptions } from './view/options.js'
export * from './catalog/index.js'
export * from './search/index.js'
export {
  summarizeUsage,
  type AgentUsage,
  type UsageProblem,
  type DayUsage,
  type ModelUsage,
  type SessionUsage,
  type SummarizeUsageOptions,
  type UsageSummary,
  type UsageTotals,
} from './usage/summarize-usage.js'
export { BUILT_IN_PRICES, type ModelPrice, type PriceTable } from './usage/prices.js'
export { addUsage, ZERO_USAGE } from './usage/usage.js'
export { agentHomes, existingAgentHomes, transcriptHomes, type AgentHome } from './agent-homes.js'
export {
  readOpenCodeDb,
  isSqliteFile,
  OPENCODE_DB_MAX_BYTES,
  OpenCodeDbError,
  type OpenCodeDb,
  type OpenCodeDbErrorCode,
  type ReadOpenCodeDbOptions,
} from './formats/opencode/index.js'
