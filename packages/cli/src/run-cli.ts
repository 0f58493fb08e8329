import { CliError, ExitCode, type CliIo } from './cli-io.js'
import { commandHelp, type Command } from './command.js'
import { displayBlock } from './display-text.js'
import { quoteJson } from '@sessiontape/recorder/internal'

/**
 * Each command's module, loaded when that command runs: `search` and `list` must not pay for loading and
 * evaluating what `export` and `view` need (an HTTP server, the secret scanner's rules, the page script).
 * Only the overview loads them all, for their summaries.
 */
const COMMANDS: readonly { readonly name: string; readonly load: () => Promise<Command> }[] = [
  { name: 'list', load: async () => (await import('./commands/list.js')).listCommand },
  { name: 'search', load: async () => (await import('./commands/search.js')).searchCommand },
  { name: 'show', load: async () => (await import('./commands/show.js')).showCommand },
  { name: 'verify', load: async () => (await import('./commands/verify.js')).verifyCommand },
  { name: 'repair', load: async () => (await import('./commands/repair.js')).repairCommand },
  { name: 'tail', load: async () => (await import('./commands/tail.js')).tailCommand },
  { name: 'export', load: async () => (await import('./commands/export.js')).exportCommand },
  { name: 'view', load: async () => (await import('./commands/view.js')).viewCommand },
  { name: 'usage', load: async () => (await import('./commands/usage.js')).usageCommand },
]

async function loadCommand(name: string | undefined): Promise<Command | undefined> {
  return await COMMANDS.find((c) => c.name === name)?.load()
}

async function overview(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map(async (c) => await c.load()))
  const width = Math.max(...commands.map((c) => c.name.length))
  return `Usage: sessiontape <command> [options]
       sessiontape --version

Read, check, repair, export and view sessiontape JSONL transcripts (and other agents' sessions).

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Which files are ours: a transcript whose first line is a record in sessiontape's envelope
({"uuid":…,"parentUuid":…,"sessionId":…,"timestamp":…,"type":…,"v":1}). Every command reads any
file; only \`repair\` (and \`list --rebuild-meta\`, for sidecars) ever writes, and never to a file
that is not ours (\`list\` and \`search\` keep a cache in ~/.cache/sessiontape, and every command
its compiled code there, nowhere else; \`export --out\` writes only its own export, never onto a
transcript).
Nothing read from a file reaches the terminal unescaped: control characters and escape
sequences are shown as visible symbols (ESC as ␛).

Every command accepts --json (machine-readable output on stdout; a failure is printed there as
{"error":{"code","message","exitCode"}}) and --help.
Exit codes: 0 ok, 1 problems found (verify), nothing found (search) or session held by a live
recorder (repair), 2 unreadable input or bad command line, 3 refused (repair: not ours, or nothing
to keep).
Interrupted (SIGINT, SIGTERM, SIGHUP): says so on stderr and ends by that signal (a shell shows
130, 143, 129), never with 0: \`timeout 60 sessiontape verify f && ship f\` never ships an unchecked f.
Run \`sessiontape <command> --help\` for its options.
`
}

/** The package's version, from its manifest (inlined by a bundler; read only when asked). */
async function version(): Promise<string> {
  const { default: manifest } = await import('../package.json', { with: { type: 'json' } })
  return manifest.version
}

/** Runs one command line; resolves to the exit code. Never throws for user errors: they become messages. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv
  if (name === '--version' || name === '-v' || name === 'version') {
    const current = await version()
    io.out(argv.includes('--json') ? `${JSON.stringify({ version: current })}\n` : `${current}\n`)
    return ExitCode.OK
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? await loadCommand(rest[0]) : undefined
    io.out(topic === undefined ? await overview() : commandHelp(topic))
    return ExitCode.OK
  }
  const json = rest.includes('--json')
  const command = await loadCommand(name)
  if (command === undefined) {
    const error = new CliError(`sessiontape: unknown command ${JSON.stringify(name)}`)
    if (json) return fail(io, error, true)
    io.err(`${displayBlock(error.message)}\n\n${await overview()}`)
    return error.exitCode
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandHelp(command))
    return ExitCode.OK
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    // Stopped (Ctrl-C, or the reader of a pipe went away): a normal ending, not a failure to report.
    if (io.signal.aborted && error === io.signal.reason) return ExitCode.OK
    if (error instanceof CliError) return fail(io, error, json)
    const code = (error as NodeJS.ErrnoException).code
    const message = `sessiontape ${name}: ${error instanceof Error ? error.message : String(error)}${code === undefined ? '' : ` (${code})`}`
    return fail(io, new CliError(message, ExitCode.UNREADABLE, code ?? 'ERR_UNREADABLE'), json)
  }
}

/** Prints a failure: as one JSON object on stdout under `--json`, else as text on stderr. */
function fail(io: CliIo, error: CliError, json: boolean): ExitCode {
  if (json) {
    io.out(
      `{"error":{"code":${quoteJson(error.code)},"message":${quoteJson(error.message)},"exitCode":${error.exitCode}}}\n`,
    )
  } else io.err(`${displayBlock(error.message)}\n`)
  return error.exitCode
}
