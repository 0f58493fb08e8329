import { CliError, ExitCode, type CliIo } from './cli-io.js'
import type { Command } from './command.js'
import { listCommand } from './commands/list.js'
import { repairCommand } from './commands/repair.js'
import { showCommand } from './commands/show.js'
import { tailCommand } from './commands/tail.js'
import { verifyCommand } from './commands/verify.js'

const COMMANDS: readonly Command[] = [listCommand, showCommand, verifyCommand, repairCommand, tailCommand]

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return `Usage: sessiontape <command> [options]

Read, check and repair sessiontape JSONL transcripts.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Every command accepts --json (machine-readable output) and --help.
Run \`sessiontape <command> --help\` for its options and exit codes.
`
}

/** Runs one command line; resolves to the exit code. Never throws for user errors: they become messages. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined
    io.out(topic?.help ?? overview())
    return ExitCode.OK
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (command === undefined) {
    io.err(`sessiontape: unknown command ${JSON.stringify(name)}\n\n${overview()}`)
    return ExitCode.UNREADABLE
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help)
    return ExitCode.OK
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${error.message}\n`)
      return error.exitCode
    }
    const code = (error as NodeJS.ErrnoException).code
    io.err(
      `sessiontape ${name}: ${error instanceof Error ? error.message : String(error)}${code === undefined ? '' : ` (${code})`}\n`,
    )
    return ExitCode.UNREADABLE
  }
}
