import { plainStyle, type Style } from './style.js'

/** Where a command writes. Tests and the real entry point both pass one. */
export interface CliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM): long-running commands end cleanly. */
  readonly signal: AbortSignal
  /** Colours for human output (plain unless stdout is a terminal, see style.ts). @default plain */
  readonly style?: Style
  /**
   * Resolves once the output has room again: a command printing a large transcript awaits it between
   * batches, so a slow reader on a pipe cannot make the output pile up in memory. @default resolved
   */
  readonly drain?: () => Promise<void>
  /**
   * How many terminal columns a one-line view (`tail`) may use, asked per line so a resized terminal is
   * followed (see commands/tail-columns.ts). @default 80
   */
  readonly columns?: () => number
}

export function styleOf(io: CliIo): Style {
  return io.style ?? plainStyle
}

export async function drained(io: CliIo): Promise<void> {
  if (io.drain !== undefined) await io.drain()
}

/** Exit codes shared by every command. */
export const ExitCode = {
  OK: 0,
  /** `verify`: the transcript has problems. `repair`: the session is held by a live recorder. */
  PROBLEMS: 1,
  /** The input could not be read (missing, a directory, no permission) or the command line was wrong. */
  UNREADABLE: 2,
  /** `repair` refused to change a file: not ours, or nothing in it could be kept. The file is untouched. */
  REFUSED: 3,
} as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** A failure with a message for the user and the exit code to end with; never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError'
  readonly exitCode: ExitCode
  /** Stable code for `--json` error output (`ERR_USAGE`, `ENOENT`, `ERR_FOREIGN_FILE`, …). */
  readonly code: string
  constructor(message: string, exitCode: ExitCode = ExitCode.UNREADABLE, code = 'ERR_USAGE') {
    super(message)
    this.exitCode = exitCode
    this.code = code
  }
}
