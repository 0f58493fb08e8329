import { stat } from 'node:fs/promises'
import path from 'node:path'
import { CliError, ExitCode } from './cli-io.js'

/** Resolves a transcript argument, with a clear message for a missing file or a directory. */
export async function requireFile(command: string, given: string | undefined): Promise<string> {
  if (given === undefined)
    throw new CliError(`sessiontape ${command}: missing <file>. Run \`sessiontape ${command} --help\`.`)
  const info = await stat(given).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      `sessiontape ${command}: ${describeStatError(given, error, 'file')}`,
      ExitCode.UNREADABLE,
      error.code ?? 'ERR_UNREADABLE',
    )
  })
  if (info.isDirectory()) {
    throw new CliError(
      `sessiontape ${command}: ${given} is a directory, but \`${command}\` expects a transcript file (<sessionId>.jsonl).\n` +
        `To see the sessions in it: sessiontape list ${given}`,
      ExitCode.UNREADABLE,
      'EISDIR',
    )
  }
  if (!info.isFile()) {
    throw new CliError(
      `sessiontape ${command}: ${given} is not a regular file`,
      ExitCode.UNREADABLE,
      'ERR_NOT_A_FILE',
    )
  }
  return path.resolve(given)
}

/** Resolves a sessions-directory argument, with a clear message for a missing directory or a file. */
export async function requireDirectory(command: string, given: string | undefined): Promise<string> {
  if (given === undefined)
    throw new CliError(`sessiontape ${command}: missing <dir>. Run \`sessiontape ${command} --help\`.`)
  const info = await stat(given).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      `sessiontape ${command}: ${describeStatError(given, error, 'directory')}`,
      ExitCode.UNREADABLE,
      error.code ?? 'ERR_UNREADABLE',
    )
  })
  if (!info.isDirectory()) {
    throw new CliError(
      `sessiontape ${command}: ${given} is a file, but \`${command}\` expects a directory of sessions.\n` +
        `To read this transcript: sessiontape show ${given}`,
      ExitCode.UNREADABLE,
      'ENOTDIR',
    )
  }
  return path.resolve(given)
}

export function describeStatError(given: string, error: NodeJS.ErrnoException, what: string): string {
  switch (error.code) {
    case 'ENOENT':
      return `no such ${what}: ${given}`
    case 'EACCES':
    case 'EPERM':
      return `cannot read ${given}: permission denied`
    case 'ENOTDIR':
      return `no such ${what}: ${given} (a part of the path is not a directory)`
    default:
      return `cannot read ${given}: ${error.code ?? error.message}`
  }
}
