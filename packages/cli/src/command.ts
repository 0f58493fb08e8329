import { parseArgs, type ParseArgsConfig } from 'node:util'
import { TRANSCRIPT_FORMATS, type FormatOption } from '@sessiontape/recorder'
import { stringifyJson } from '@sessiontape/recorder/internal'
import { CliError, ExitCode, type CliIo } from './cli-io.js'
import { allOptions, renderHelp, type HelpTable, type OptionSpec } from './help-text.js'

/**
 * One `sessiontape` command. Its help table (usage, description, options, exit codes) is both its `--help`
 * text and its parser's option list: add an option as one row of `options` and it is parsed and listed.
 */
export interface Command extends HelpTable {
  readonly name: string
  /** One line for the overview. */
  readonly summary: string
  run(args: readonly string[], io: CliIo): Promise<ExitCode>
}

/** The full `--help` text of a command. */
export function commandHelp(command: Command): string {
  return renderHelp(command)
}

type Options = NonNullable<ParseArgsConfig['options']>

function parserOptions(options: readonly OptionSpec[]): Options {
  const parsed: Options = {}
  for (const option of allOptions(options)) {
    parsed[option.name] = {
      type: option.value === undefined ? 'boolean' : 'string',
      ...(option.short === undefined ? {} : { short: option.short }),
    }
  }
  return parsed
}

export interface ParsedArgs {
  readonly values: { readonly [name: string]: string | boolean | undefined }
  readonly positionals: readonly string[]
}

/**
 * node:util parseArgs over the command's option rows (plus --json and --help), with its errors turned into
 * a usage message that points at `--help`.
 */
export function parseCommandArgs(command: Command, args: readonly string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: parserOptions(command.options),
      allowPositionals: true,
      strict: true,
    })
    return { values: values as ParsedArgs['values'], positionals }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new CliError(`sessiontape ${command.name}: ${message}\nRun \`sessiontape ${command.name} --help\`.`)
  }
}

/** Rejects extra positional arguments instead of silently ignoring them. */
export function expectPositionals(command: string, positionals: readonly string[], max: number): void {
  if (positionals.length > max) {
    throw new CliError(
      `sessiontape ${command}: unexpected argument ${JSON.stringify(positionals[max])}. Run \`sessiontape ${command} --help\`.`,
    )
  }
}

/** Pretty JSON on stdout: exact JSON, stack-free on deep nesting, terminal-unsafe characters escaped. */
export function writeJson(io: CliIo, value: unknown): void {
  io.out(`${stringifyJson(value, { indent: 2 })}\n`)
}

/** A string option's value (parseArgs already rejected a missing value), or undefined when absent. */
export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The `--format` option every reading command takes. */
export const FORMAT_OPTION: OptionSpec = {
  name: 'format',
  value: '<f>',
  help: 'read the file as: auto (default: recognised from its first lines), sessiontape, claude-code, qwen-code, gemini-cli (JSONL replay), gemini-json (older single document), codex-cli, copilot-cli, cursor-cli',
}

/** The `--format` value, validated: a wrong one is a usage error that lists the formats. */
export function formatOption(command: string, value: string | boolean | undefined): FormatOption {
  const given = stringOption(value)
  if (given === undefined) return 'auto'
  if (given === 'auto' || (TRANSCRIPT_FORMATS as readonly string[]).includes(given))
    return given as FormatOption
  throw new CliError(
    `sessiontape ${command}: unknown --format ${JSON.stringify(given)}; expected auto, ${TRANSCRIPT_FORMATS.join(', ')}`,
    ExitCode.UNREADABLE,
    'ERR_USAGE',
  )
}
