import { parseArgs, type ParseArgsConfig } from 'node:util'
import { stringifyJson } from '../read/stringify-json.js'
import { CliError, type CliIo, type ExitCode } from './cli-io.js'

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
