/**
 * POSIX shells report a process killed by signal n as exit status 128 + n; a graceful exit on a signal
 * mirrors that so `$?` means the same whether the process died or cleaned up first.
 */
export const SIGNAL_NUMBERS = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGTERM: 15,
  // Windows only (Ctrl-Break); libuv numbers it 21.
  SIGBREAK: 21,
} as const

export type ShutdownSignal = keyof typeof SIGNAL_NUMBERS

/** Exit code for a graceful exit caused by `signal`: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function exitCodeForSignal(signal: ShutdownSignal): number {
  return 128 + SIGNAL_NUMBERS[signal]
}

/** `true` when `name` is one of the signals this package can handle. */
export function isShutdownSignal(name: unknown): name is ShutdownSignal {
  return typeof name === 'string' && Object.hasOwn(SIGNAL_NUMBERS, name)
}

/** Node's own exit code for an uncaught exception; a fatal-error shutdown uses the same. */
export const EXIT_CODE_FATAL = 1

/**
 * 128 + SIGPIPE (13): what a shell reports for a writer killed by a closed pipe. Offered as the
 * alternative to 0 for an EPIPE ending (`guardEpipe(stream, { exitCode: EXIT_CODE_SIGPIPE })`).
 */
export const EXIT_CODE_SIGPIPE = 141

/**
 * The code a plain `process.exit()` would use now: `process.exitCode` (a number or an integer string),
 * reduced to 0–255 as a POSIX parent sees it, or 0 when it is unset. A failure recorded there must not
 * become a success just because the exit went through the graceful path.
 */
export function currentExitCode(exitCode: unknown): number {
  const code = typeof exitCode === 'string' && /^-?\d+$/.test(exitCode) ? Number(exitCode) : exitCode
  if (typeof code !== 'number' || !Number.isInteger(code)) return 0
  return ((code % 256) + 256) % 256
}
