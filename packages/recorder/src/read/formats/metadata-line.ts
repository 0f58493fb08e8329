/**
 * A line of another tool's transcript that is not a record: Claude Code's `summary` (with `leafUuid`),
 * `custom-title`, `ai-title`, `file-history-snapshot`, `queue-operation`, usage-only lines…; Gemini CLI's
 * session header, `$set`, `$patch` and `$rewindTo` lines. Kept as parsed, never reported as damage.
 */
export interface MetadataLine {
  /** 1-based line number. */
  readonly line: number
  /** Byte offset where the line starts. */
  readonly offset: number
  /** The line's JSON object, every field as written. */
  readonly value: Readonly<Record<string, unknown>>
}
