/**
 * What a tolerant read found wrong. Problems are data, never exceptions: a reader returns them next to
 * every record it could still recover.
 */
export type ProblemKind =
  /** The last line has no newline: a write was cut off (crash, power loss, live writer mid-write). */
  | 'torn-tail'
  /** A complete line that is not JSON and holds no recoverable record. */
  | 'invalid-json'
  /** A line longer than the reader's limit: skipped without being read into memory. */
  | 'too-long'
  /** A line that is JSON but not an object (a number, string, array, `null`). */
  | 'not-an-object'
  /** Several records, or a torn fragment and a record, on one line; they were split. */
  | 'glued'
  /** A run of NUL bytes (typical after a power cut on ext4 with delayed allocation); removed. */
  | 'nul-run'
  /** A JSON object without the record envelope (`uuid`, `parentUuid`, `sessionId`, `timestamp`, `type`, `v`). */
  | 'missing-envelope'
  /** A record whose `parentUuid` names a record that is not in the file. */
  | 'orphan'
  /** A record whose `uuid` was already used by an earlier record. */
  | 'duplicate-uuid'
  /** Records whose `parentUuid` links loop back onto themselves. */
  | 'cycle'

export interface ReadProblem {
  /** 1-based physical line number (lines are separated by `\n`). */
  readonly line: number
  /** Byte offset in the file where that line starts (absent for problems only the whole file reveals). */
  readonly offset?: number
  readonly kind: ProblemKind
  /** A human-readable sentence saying what was found and what the reader did about it. */
  readonly detail: string
  /**
   * The file the line is in, when the session spans several files (segments, see format/segments.ts): `line`
   * and `offset` count in that file. Absent for a session of one file.
   */
  readonly file?: string
}

/** The kinds in a stable order (for summaries and CLI output). */
export const PROBLEM_KINDS: readonly ProblemKind[] = [
  'torn-tail',
  'invalid-json',
  'too-long',
  'not-an-object',
  'glued',
  'nul-run',
  'missing-envelope',
  'orphan',
  'duplicate-uuid',
  'cycle',
]
