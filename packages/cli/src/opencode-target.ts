import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { CliError, ExitCode } from './cli-io.js'
import { displayLine } from './display-text.js'

/**
 * OpenCode keeps its sessions in one SQLite file (opencode.db), not in JSONL transcripts. The commands that
 * take a file recognise it by SQLite's 16-byte header string here (without loading the sessions package):
 * `show` and `usage` then read it (opencode-db.ts), `verify` and `repair` say it is not a transcript. One
 * session of the store is named `<db>#<sessionId>`.
 */

const SQLITE_MAGIC = 'SQLite format 3\0'

async function isSqliteFile(file: string): Promise<boolean> {
  try {
    // O_NONBLOCK: a FIFO must not hold the command until a writer appears; only a regular file is read.
    const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    try {
      if (!(await handle.stat()).isFile()) return false
      const head = Buffer.alloc(16)
      const { bytesRead } = await handle.read(head, 0, 16, 0)
      return bytesRead === 16 && head.toString('latin1') === SQLITE_MAGIC
    } finally {
      await handle.close()
    }
  } catch {
    // Missing, a directory, unreadable: not a store; the command reads it as any file and says why it cannot.
    return false
  }
}

/** A store (and maybe one session of it) named on the command line, or undefined for any other argument. */
export interface OpenCodeTarget {
  readonly file: string
  readonly sessionId?: string
}

/** `given` as an OpenCode target when it names a SQLite file (`<db>` or `<db>#<sessionId>`). */
export async function openCodeTarget(given: string | undefined): Promise<OpenCodeTarget | undefined> {
  if (given === undefined) return undefined
  if (await isSqliteFile(given)) return { file: path.resolve(given) }
  const hash = given.lastIndexOf('#')
  if (hash <= 0 || hash === given.length - 1) return undefined
  const file = given.slice(0, hash)
  if (!(await isSqliteFile(file))) return undefined
  return { file: path.resolve(file), sessionId: given.slice(hash + 1) }
}

/** `verify` / `repair` of a SQLite file: refused, it has no lines (exit 2 for verify, 3 for repair). */
export async function refuseSqlite(command: 'verify' | 'repair', given: string | undefined): Promise<void> {
  if ((await openCodeTarget(given)) === undefined) return
  throw new CliError(
    `sessiontape ${command}: ${displayLine(given!)} is a SQLite database (OpenCode's opencode.db), not a JSONL ` +
      `transcript: it has no lines to ${command}${command === 'repair' ? '; it is untouched' : ''}. ` +
      `Read it with \`sessiontape show\`, \`export\` or \`usage\`.`,
    command === 'verify' ? ExitCode.UNREADABLE : ExitCode.REFUSED,
    'ERR_NOT_A_TRANSCRIPT',
  )
}
