import { spawn } from 'node:child_process'
import type { CliIo } from './cli-io.js'

/** What a shell answers for a command it cannot find: the pager is missing, the text is printed instead. */
const COMMAND_NOT_FOUND = 127

/**
 * The pager command to run, as `git log` chooses it: none with `--no-pager`, when output is not a terminal,
 * or for an empty `PAGER` or `PAGER=cat`; else `$PAGER`, else `less` (given `-R` through `LESS=FRX`).
 * Pure, so the choice is tested without a terminal.
 */
export function pagerFor(
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
  noPager: boolean,
): string | undefined {
  const pager = env.PAGER ?? 'less'
  if (noPager || !isTTY || pager.trim() === '' || pager.trim() === 'cat') return undefined
  return pager
}

/**
 * Prints `text` (already made terminal-safe: the pager gets the bytes the terminal would), through the
 * pager of {@link pagerFor}, run by the shell with `LESS=FRX` unless set (quit when it fits one screen, pass
 * our colours, leave the screen as it was). Quitting the pager early is a normal ending (its closed pipe is
 * ignored); a pager that is not installed: the text is printed instead.
 */
export async function pageText(text: string, noPager: boolean, io: CliIo): Promise<void> {
  const pager = pagerFor(process.env, process.stdout.isTTY === true, noPager)
  if (pager === undefined) {
    io.out(text)
    return
  }
  const child = spawn(pager, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, LESS: process.env.LESS ?? 'FRX' },
  })
  // EPIPE when the user quits before reading everything: the pager has ended, nothing is lost.
  child.stdin.on('error', () => undefined)
  child.stdin.end(text)
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(COMMAND_NOT_FOUND))
    child.on('close', (exit) => resolve(exit))
  })
  if (code === COMMAND_NOT_FOUND) io.out(text)
}
