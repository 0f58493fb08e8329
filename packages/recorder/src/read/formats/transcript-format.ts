import { describeValue } from '../../util/describe-value.js'

/**
 * The transcript formats the readers understand.
 *
 * - `sessiontape`: this package's records (`uuid`, `parentUuid`, `sessionId`, `timestamp`, `type`, `v`).
 * - `claude-code`: Claude Code's `~/.claude/projects/<project>/<session>.jsonl` (no `v`; metadata lines
 *   without a uuid; `compact_boundary` linked through `logicalParentUuid`; sidechains).
 * - `qwen-code`: Qwen Code's `~/.qwen/projects/<project>/chats/<session>.jsonl` (Claude's envelope
 *   without `v`; `message.parts`; `system` records with a `subtype`).
 * - `gemini-cli`: Gemini CLI's `~/.gemini/tmp/<hash>/chats/session-*.jsonl`, a replay log: a header
 *   line, messages keyed by `id`, `$set` / `$patch` / `$rewindTo` lines applied in order.
 * - `gemini-json`: Gemini CLI's older single JSON document per session (`session-*.json`).
 * - `codex-cli`: Codex CLI's rollouts, `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`
 *   (`{timestamp, [ordinal], type, payload}` lines, `session_meta` first; segments of one thread read as
 *   one session; `.jsonl.zst` read transparently).
 * - `copilot-cli`: GitHub Copilot CLI's `~/.copilot/session-state/<session>/events.jsonl` (typed events
 *   linked by `id` / `parentId`).
 * - `cursor-cli`: Cursor CLI's (`cursor-agent`) transcripts (`{role, message}` lines; sub-agents in
 *   `subagents/`).
 *
 * docs/formats.md describes the record each reader yields.
 */
export type TranscriptFormat =
  | 'sessiontape'
  | 'claude-code'
  | 'qwen-code'
  | 'gemini-cli'
  | 'gemini-json'
  | 'codex-cli'
  | 'copilot-cli'
  | 'cursor-cli'

/** What a reader's `format` option accepts: a format, or `'auto'` to recognise it from the content. */
export type FormatOption = TranscriptFormat | 'auto'

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'sessiontape',
  'claude-code',
  'qwen-code',
  'gemini-cli',
  'gemini-json',
  'codex-cli',
  'copilot-cli',
  'cursor-cli',
]

/** Formats another tool wrote: never ours to write, and read with that tool's rules. */
export function isForeignFormat(format: TranscriptFormat): boolean {
  return format !== 'sessiontape'
}

/** Validates a `format` option at the boundary (shared message template). */
export function checkFormat(given: unknown): FormatOption {
  if (given === undefined) return 'auto'
  if (given === 'auto' || (TRANSCRIPT_FORMATS as readonly unknown[]).includes(given)) {
    return given as FormatOption
  }
  throw new TypeError(
    `Expected \`format\` to be one of 'auto', ${TRANSCRIPT_FORMATS.map((f) => `'${f}'`).join(', ')}, got \`${describeValue(given)}\` (${typeof given})`,
  )
}
