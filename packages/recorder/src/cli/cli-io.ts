/** Where a command writes. Tests and the real entry point both pass one. */
export interface CliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM): long-running commands end cleanly. */
  readonly signal: AbortSignal
}

/** Exit codes shared by every command (`verify` documents 1 as "problems found"). */
export const ExitCode = {
  OK: 0,
  /** `verify`: the transcript has problems. `repair`: the session is held by a live recorder. */
  PROBLEMS: 1,
  /** The input could not be read (missing, a directory, no permission) or the command line was wrong. */
  UNREADABLE: 2,
} as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** A failure with a message for the user and the exit code to end with; never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError'
  readonly exitCode: ExitCode
  constructor(message: string, exitCode: ExitCode = ExitCode.UNREADABLE) {
    super(message)
    this.exitCode = exitCode
  }
}
