/**
 * Record types other agents write that the writer profiles must know too (a profile keeps them off the parent
 * chain) and the readers use to recognise a format. Facts about other agents' files, shared by write/ and read/.
 */

/** Claude Code lines that are not conversation records and carry no uuid (summary, snapshots…). */
export const CLAUDE_METADATA_TYPES: ReadonlySet<string> = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'last-prompt',
  'permission-mode',
  'mode',
  'agent-name',
  'pr-link',
  'relocated',
  'worktree-state',
  'attachment',
])
