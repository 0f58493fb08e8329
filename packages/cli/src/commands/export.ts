import type { ExportResult } from '@sessiontape/sessions'
import { CliError, ExitCode, drained } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  stringOption,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { CLI_MAX_LINE_BYTES } from '../limits.js'
import { requireFile } from '../targets.js'
import { openCodeTarget } from '../opencode-target.js'

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new CliError(
    `sessiontape export: unknown --${name} ${JSON.stringify(value)}; expected ${allowed.join(' or ')}`,
    ExitCode.UNREADABLE,
    'ERR_USAGE',
  )
}

function summary(result: ExportResult): string {
  const parts = [`${result.turns} turn${result.turns === 1 ? '' : 's'}`]
  if (result.redaction !== undefined) {
    const kinds = Object.entries(result.redaction.byKind).map(([kind, count]) => `${kind} ${count}`)
    parts.push(
      `${result.redaction.total} secret${result.redaction.total === 1 ? '' : 's'} redacted${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`,
    )
  }
  if (result.problems > 0)
    parts.push(`${result.problems} damaged line${result.problems === 1 ? '' : 's'} skipped`)
  return parts.join(', ')
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'export a session as one self-contained HTML page or as Markdown, optionally redacted',
  usage:
    'export <file> [--format html|md] [--out <path>] [--redact [--keep-images]] [--branch active|all] [--input-format <f>] [--json]',
  description: `
Renders a session of any format sessiontape reads (--input-format as --format elsewhere): turns with roles and times, tool calls with
their results, thinking, compaction and resume/recovered markers, subagent turns nested, token usage
per turn and in total. HTML is one file with no request of any kind (inline style and script, a
strict Content-Security-Policy); every piece of transcript text is escaped, links are http(s) only.
Markdown puts tool calls and results in fenced blocks no content can close. Prints to stdout
unless --out is given (written through a temporary file and renamed into place; never onto the
transcript). With --redact, secrets (API keys, tokens, private keys, JWTs, passwords in URLs,
random-looking KEY=/token: values) become [REDACTED:<kind>] and the counts go to stderr; images become
placeholders (a screenshot can show a secret no rule reads) unless --keep-images.
`,
  options: [
    { name: 'format', value: '<html|md>', help: 'html (default): one self-contained page; md: Markdown' },
    { name: 'out', short: 'o', value: '<path>', help: 'write the export to this file instead of stdout' },
    { name: 'redact', help: 'replace secrets by [REDACTED:<kind>] and report how many of each' },
    { name: 'keep-images', help: 'with --redact, show images anyway (placeholders otherwise)' },
    {
      name: 'branch',
      value: '<active|all>',
      help: 'active (default): the branch the session continues from; all: rewound and side branches too, marked (switchable in HTML)',
    },
    { ...FORMAT_OPTION, name: 'input-format' },
    { name: 'json', help: 'print a summary (turns, usage, redaction counts) as JSON; needs --out' },
  ],
  exitCodes:
    '0 exported, 2 unreadable input or bad command line, 3 refused (--out is the transcript or not a regular file).',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(exportCommand, args)
    expectPositionals('export', positionals, 1)
    const transcriptFormat = formatOption('export', values['input-format'])
    const format = oneOf('format', stringOption(values.format), ['html', 'md'] as const, 'html')
    const branch = oneOf('branch', stringOption(values.branch), ['active', 'all'] as const, 'active')
    const out = stringOption(values.out)
    const json = values.json === true
    if (json && out === undefined) {
      throw new CliError(
        'sessiontape export: --json needs --out (stdout holds the export)',
        ExitCode.UNREADABLE,
        'ERR_USAGE',
      )
    }
    const store = await openCodeTarget(positionals[0])
    if (store !== undefined) {
      const keep = { redact: values.redact === true, keepImages: values['keep-images'] === true }
      const to = out === undefined ? {} : { out }
      return (await import('../opencode-db.js')).exportStore(store, { format, ...keep, ...to }, io)
    }
    const file = await requireFile('export', positionals[0])
    // Loaded on use: every other command starts without the renderers and the redaction rules.
    const { exportSession } = await import('@sessiontape/sessions')
    let result: ExportResult
    try {
      result = await exportSession(file, {
        format,
        branch,
        redact: values.redact === true,
        keepImages: values['keep-images'] === true,
        transcriptFormat,
        maxLineBytes: CLI_MAX_LINE_BYTES,
        signal: io.signal,
        ...(out === undefined
          ? {
              write: async (chunk: string) => {
                io.out(chunk)
                await drained(io)
              },
            }
          : { out }),
      })
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_EXPORT_OUT') {
        throw new CliError(
          `sessiontape export: ${displayLine((error as Error).message)}`,
          ExitCode.REFUSED,
          'ERR_EXPORT_OUT',
        )
      }
      throw error
    }
    if (json)
      writeJson(io, {
        out,
        format,
        branch,
        turns: result.turns,
        usage: result.usage,
        problems: result.problems,
        redaction: result.redaction ?? null,
      })
    else if (out !== undefined || result.redaction !== undefined || result.problems > 0) {
      io.err(
        `sessiontape export: ${out === undefined ? '' : `wrote ${displayLine(out)}: `}${summary(result)}\n`,
      )
    }
    return ExitCode.OK
  },
}
