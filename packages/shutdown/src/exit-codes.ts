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
