/**
 * How wide a `tail` line may be. Asked again for every line, so `tail -f` follows a resized terminal (Node
 * updates `columns` of a TTY stream on SIGWINCH).
 *
 * - `COLUMNS`, when it is a positive integer: the user's explicit choice wins, as for GNU `ls` (shells keep it
 *   as an unexported variable, so it is set only when someone meant it);
 * - else the terminal's width, when stdout is a terminal;
 * - else {@link DEFAULT_COLUMNS}: a pipe or a file has no width, and a record's one-line preview still needs
 *   a bound (its text can be megabytes).
 */

/** The width of a classic terminal, and what `ls`, `man` and most CLIs assume when they cannot tell. */
export const DEFAULT_COLUMNS = 80

/** The part of `process.stdout` the width comes from. */
export interface ColumnsSource {
  readonly isTTY?: boolean
  readonly columns?: number
}

export function outputColumns(stdout: ColumnsSource, env: NodeJS.ProcessEnv): number {
  const fromEnv = env.COLUMNS === undefined ? NaN : Number(env.COLUMNS)
  if (Number.isSafeInteger(fromEnv) && fromEnv > 0) return fromEnv
  // A pty nobody sized (a CI runner's `script`) reports 0 columns: that is no width either.
  if (stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0) return stdout.columns
  return DEFAULT_COLUMNS
}
