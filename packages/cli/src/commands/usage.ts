import { CliError, ExitCode, styleOf, type CliIo } from '../cli-io.js'
import {
  FORMAT_OPTION,
  formatOption,
  parseCommandArgs,
  stringOption,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { CLI_MAX_LINE_BYTES } from '../limits.js'

type Grouping = 'session' | 'day' | 'model'
const GROUPINGS: readonly Grouping[] = ['session', 'day', 'model']

/** The token columns, in the order they are printed (JSON keys are the field names). */
const COLUMNS = [
  ['input', 'inputTokens'],
  ['cache read', 'cacheReadInputTokens'],
  ['cache write', 'cacheCreationInputTokens'],
  ['output', 'outputTokens'],
  ['reasoning', 'reasoningOutputTokens'],
  ['total', 'totalTokens'],
] as const

type Counts = { readonly [K in (typeof COLUMNS)[number][1]]: number }

export const usageCommand: Command = {
  name: 'usage',
  summary: 'token usage of sessions: per session, day or model, and in total',
  usage: 'usage <file-or-dir>… [--by session|day|model] [--since <day>] [--until <day>] [--json]',
  description: `
Adds up the tokens every model request of the given sessions used, normalized like OpenTelemetry's
gen_ai.usage.*: input (all input, cached included), cache read, cache write (cache creation),
output (reasoning included), reasoning, total (input + output). Directories are walked
recursively (~/.claude/projects, ~/.qwen/projects, ~/.gemini/tmp, ~/.codex/sessions…): every
*.jsonl, *.jsonl.zst and Gemini session-*.json file. Each agent's counts are read by the rules its
own tools apply: a Claude Code request repeated on several lines (one per content block) or in
several files (a resumed session) counts once, by message.id + requestId, as ccusage counts it.
Days are calendar days in the local time zone (or --timezone), as ccusage reports them.
No network, no prices. Reads files, writes nothing.
`,
  options: [
    {
      name: 'by',
      value: '<g>',
      help: 'rows per session (default), day or model; the totals are printed either way',
    },
    { name: 'since', value: '<day>', help: 'count only usage on or after this day (YYYY-MM-DD)' },
    { name: 'until', value: '<day>', help: 'count only usage on or before this day (YYYY-MM-DD)' },
    { name: 'timezone', value: '<z>', help: "the IANA time zone of days (default: the system's)" },
    FORMAT_OPTION,
    {
      name: 'json',
      help: 'print { sessions: [{ file, format, agent, sessionId, models, requests, inputTokens, cacheReadInputTokens, cacheCreationInputTokens, outputTokens, reasoningOutputTokens, totalTokens, firstTimestamp, lastTimestamp, problems }], days (--by day), models (--by model), totals: { the same token fields, models, requests }, filesRead, unreadable: [{ file, code, message }], linesNotRead: [{ file, lines }] } as JSON; lines that could not be read are also named on stderr',
    },
  ],
  exitCodes: `0 ok, 2 a path or file could not be read (the rest is still counted and printed) or a bad command line.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(usageCommand, args)
    if (positionals.length === 0)
      throw new CliError('sessiontape usage: missing <file-or-dir>. Run `sessiontape usage --help`.')
    const given = stringOption(values.by) ?? 'session'
    const by = GROUPINGS.find((g) => g === given)
    if (by === undefined) {
      throw new CliError(
        `sessiontape usage: unknown --by ${JSON.stringify(given)}; expected session, day or model`,
      )
    }
    const format = formatOption('usage', values.format)
    const since = stringOption(values.since)
    const until = stringOption(values.until)
    const timeZone = stringOption(values.timezone)
    // Loaded here, not at the top: the other commands start without the conversation model's code.
    const { summarizeUsage, SessionsArgumentError } = await import('@sessiontape/sessions')
    let summary
    try {
      summary = await summarizeUsage(positionals, {
        format,
        signal: io.signal,
        maxLineBytes: CLI_MAX_LINE_BYTES,
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
        ...(timeZone === undefined ? {} : { timeZone }),
      })
    } catch (error) {
      // since, until, timezone: the library's message names the option and what it expected.
      if (error instanceof SessionsArgumentError) throw new CliError(`sessiontape usage: ${error.message}`)
      throw error
    }
    const code = summary.unreadable.length === 0 ? ExitCode.OK : ExitCode.UNREADABLE
    if (values.json === true) {
      writeJson(io, {
        sessions: summary.sessions,
        ...(by === 'day' ? { days: summary.days } : {}),
        ...(by === 'model' ? { models: summary.models } : {}),
        totals: summary.totals,
        filesRead: summary.filesRead,
        unreadable: summary.unreadable,
        linesNotRead: summary.linesNotRead,
      })
      return code
    }
    for (const { file, code: why, message } of summary.unreadable) {
      io.err(`sessiontape usage: cannot read ${displayLine(file)} (${why}): ${displayLine(message)}\n`)
    }
    // Said, not only counted in --json: a total that silently leaves out a damaged line looks exact.
    for (const { file, lines } of summary.linesNotRead) {
      io.err(
        `sessiontape usage: ${lines} line${lines === 1 ? '' : 's'} of ${displayLine(file)} could not be read ` +
          `(damaged, cut off or over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB); any usage on ${lines === 1 ? 'it' : 'them'} is not counted. ` +
          `\`sessiontape verify\` lists ${lines === 1 ? 'it' : 'them'}.\n`,
      )
    }
    const rows =
      by === 'day'
        ? summary.days.map((day) => ({ label: day.date, counts: day, models: day.models }))
        : by === 'model'
          ? summary.models.map((model) => ({ label: model.model, counts: model, models: [] }))
          : summary.sessions.map((session) => ({
              label: session.file,
              counts: session,
              models: session.models,
            }))
    io.out(table(io, by, rows, summary.totals))
    const withUsage = summary.sessions.length
    io.out(
      `${summary.filesRead} file${summary.filesRead === 1 ? '' : 's'} read, ${withUsage} with usage` +
        `${since !== undefined || until !== undefined ? ` in ${since ?? '…'} – ${until ?? '…'}` : ''}; ` +
        `${summary.totals.requests} model request${summary.totals.requests === 1 ? '' : 's'}.\n`,
    )
    return code
  },
}

function table(
  io: CliIo,
  by: Grouping,
  rows: readonly { label: string; counts: Counts; models: readonly string[] }[],
  totals: Counts,
): string {
  const style = styleOf(io)
  const number = (n: number) => n.toLocaleString('en-US')
  const head = [by, ...COLUMNS.map(([title]) => title)]
  const body = rows.map((row) => [
    displayLine(row.label),
    ...COLUMNS.map(([, key]) => number(row.counts[key])),
  ])
  const foot = ['total', ...COLUMNS.map(([, key]) => number(totals[key]))]
  const widths = head.map((title, i) =>
    Math.max(title.length, ...[...body, foot].map((cells) => cells[i]!.length)),
  )
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const out = [style.dim(line(head))]
  rows.forEach((row, i) => {
    out.push(line(body[i]!))
    if (row.models.length > 0) out.push(style.dim(`  ${row.models.map(displayLine).join(', ')}`))
  })
  out.push(style.bold(line(foot)))
  return `${out.join('\n')}\n`
}
