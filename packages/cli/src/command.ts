import { parseArgs, type ParseArgsConfig } from 'node:util'
import { TRANSCRIPT_FORMATS, type FormatOption } from '@sessiontape/recorder/internal'
import { stringifyJson } from '@sessiontape/recorder/internal'
import { CliError, ExitCode, type CliIo } from './cli-io.js'

export interface Command {
  readonly name: string
  /** One line for the overview. */
  readonly summary: string
  /** Full `--help` text. */
  readonly help: string
  run(args: readonly string[], io: CliIo): Promise<ExitCode>
}

type Options = NonNullable<ParseArgsConfig['options']>

/** `--json` and `--help` are accepted by every command. */
const COMMON: Options = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
}

export interface ParsedArgs {
  readonly values: { readonly [name: string]: string | boolean | undefined }
  readonly positionals: readonly string[]
}

/** node:util parseArgs, with its errors turned into a usage message that points at `--help`. */
export function parseCommandArgs(command: string, args: readonly string[], options: Options): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...COMMON, ...options },
      allowPositionals: true,
      strict: true,
    })
    return { values: values as ParsedArgs['values'], positionals }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new CliError(`sessiontape ${command}: ${message}\nRun \`sessiontape ${command} --help\`.`)
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
export const FORMAT_OPTION: Options = { format: { type: 'string' } }

/** Help text for `--format`, shared by every reading command. */
export const FORMAT_HELP = `  --format <f>   read the file as: auto (default: recognised from its first lines), sessiontape,
                 claude-code, qwen-code, gemini-cli (JSONL replay), gemini-json (older single document)`

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
