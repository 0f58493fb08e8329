import { readFile } from 'node:fs/promises'
import type { PriceTable } from '@sessiontape/sessions'
import { CliError, ExitCode } from '../cli-io.js'
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
import { usageTable } from './usage-table.js'
import { openCodeTarget } from '../opencode-target.js'

type Grouping = 'session' | 'day' | 'model' | 'agent'
const GROUPINGS: readonly Grouping[] = ['session', 'day', 'model', 'agent']

export const usageCommand: Command = {
  name: 'usage',
  summary: 'token usage and cost of sessions: per session, day, model or agent, and in total',
  usage:
    'usage [<file-or-dir>…] [--by session|day|model|agent] [--since <day>] [--until <day>] [--prices <file>] [--json]',
  description: `
Adds up the tokens every model request of the given sessions used, normalized like OpenTelemetry's
gen_ai.usage.*: input (all input, cached included), cache read, cache write (cache creation),
output (reasoning included), reasoning, total (input + output), and what they cost in US dollars.
Without a path, reads every agent's own session directory that exists on this machine
(~/.claude/projects or $CLAUDE_CONFIG_DIR/projects, ~/.codex/sessions or $CODEX_HOME/sessions,
~/.gemini/tmp, ~/.qwen/projects, ~/.copilot/session-state or $COPILOT_HOME/session-state).
Directories are walked recursively: every *.jsonl, *.jsonl.zst and Gemini session-*.json file.
One rule for every agent: each model request once, with the figures the model server sent as the
agent recorded them (a Claude Code response written over several lines counts once, with its last
line's figures). Claude Code subagent files count in their parent session. Days are calendar days
in the local time zone (or --timezone), as ccusage reports them; usage without a time is its own
row, \`undated\`. Cost comes from a dated price table of list prices (docs/usage.md names its source);
a model it does not price costs "unknown", never $0; --prices adds or replaces prices.
No network. Reads files, writes nothing.
`,
  options: [
    {
      name: 'by',
      value: '<g>',
      help: 'rows per session (default), day, model or agent; the totals are printed either way',
    },
    { name: 'since', value: '<day>', help: 'count only usage on or after this day (YYYY-MM-DD)' },
    { name: 'until', value: '<day>', help: 'count only usage on or before this day (YYYY-MM-DD)' },
    { name: 'timezone', value: '<z>', help: "the IANA time zone of days (default: the system's)" },
    {
      name: 'prices',
      value: '<file>',
      help: 'a JSON price table { source, date, models: { <model>: { input, output, cacheRead, cacheWrite } } } in US dollars per token, over the built-in one',
    },
    FORMAT_OPTION,
    {
      name: 'json',
      help: 'print { sessions: [{ file, format, agent, sessionId, models, requests, inputTokens, cacheReadInputTokens, cacheCreationInputTokens, outputTokens, reasoningOutputTokens, totalTokens, costUSD, unpricedRequests, unpricedModels, firstTimestamp, lastTimestamp, problems, subagentFiles }], days (--by day), models (--by model), agents (--by agent), totals: { the same token and cost fields, models, requests }, priceTables: [{ source, date }], problems: [{ file, line, kind, field, value }], problemsNotListed, filesRead, unreadable: [{ file, code, message }], linesNotRead: [{ file, lines }] } as JSON; lines that could not be read and fields that are not a count are also named on stderr',
    },
  ],
  exitCodes: `0 ok, 2 a path or file could not be read (the rest is still counted and printed) or a bad command line.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(usageCommand, args)
    const given = stringOption(values.by) ?? 'session'
    const by = GROUPINGS.find((g) => g === given)
    if (by === undefined) {
      throw new CliError(
        `sessiontape usage: unknown --by ${JSON.stringify(given)}; expected session, day, model or agent`,
      )
    }
    const format = formatOption('usage', values.format)
    const since = stringOption(values.since)
    const until = stringOption(values.until)
    const timeZone = stringOption(values.timezone)
    const pricesFile = stringOption(values.prices)
    const prices = pricesFile === undefined ? undefined : await readPrices(pricesFile)
    // Loaded here, not at the top: the other commands start without the conversation model's code.
    const { summarizeUsage, existingAgentHomes, SessionsArgumentError } =
      await import('@sessiontape/sessions')
    const store = positionals.length === 1 ? await openCodeTarget(positionals[0]) : undefined
    if (store !== undefined)
      return (await import('../opencode-db.js')).storeUsage(store, values.json === true, io)
    let paths = positionals
    if (paths.length === 0) {
      paths = (await existingAgentHomes()).map((home) => home.dir)
      if (paths.length === 0) {
        throw new CliError(
          'sessiontape usage: no agent session directory found (~/.claude/projects, ~/.codex/sessions, ' +
            '~/.gemini/tmp, ~/.qwen/projects, ~/.copilot/session-state); give a <file-or-dir>.',
        )
      }
    }
    let summary
    try {
      summary = await summarizeUsage(paths, {
        format,
        signal: io.signal,
        maxLineBytes: CLI_MAX_LINE_BYTES,
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
        ...(timeZone === undefined ? {} : { timeZone }),
        ...(prices === undefined ? {} : { prices: prices as PriceTable }),
      })
    } catch (error) {
      // since, until, timezone, prices: the library's message names the option and what it expected.
      if (error instanceof SessionsArgumentError) throw new CliError(`sessiontape usage: ${error.message}`)
      throw error
    }
    const code = summary.unreadable.length === 0 ? ExitCode.OK : ExitCode.UNREADABLE
    if (values.json === true) {
      writeJson(io, {
        sessions: summary.sessions,
        ...(by === 'day' ? { days: summary.days } : {}),
        ...(by === 'model' ? { models: summary.models } : {}),
        ...(by === 'agent' ? { agents: summary.agents } : {}),
        totals: summary.totals,
        priceTables: summary.priceTables,
        problems: summary.problems,
        problemsNotListed: summary.problemsNotListed,
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
    for (const { file, line, kind, field, value } of summary.problems) {
      io.err(
        kind === 'not-a-count'
          ? `sessiontape usage: ${displayLine(file)}:${line}: ${displayLine(field)} is ${displayLine(value)}, ` +
              `not a token count; counted as 0 unless another line of the request gives it.\n`
          : `sessiontape usage: ${displayLine(file)}:${line}: the agent's own ${displayLine(field)} disagrees ` +
              `with its requests (${displayLine(value)}); the requests are counted.\n`,
      )
    }
    if (summary.problemsNotListed > 0)
      io.err(`sessiontape usage: ${summary.problemsNotListed} more usage problems not listed.\n`)
    const rows =
      by === 'day'
        ? summary.days.map((day) => ({ label: day.date, counts: day, models: day.models }))
        : by === 'model'
          ? summary.models.map((model) => ({ label: model.model, counts: model, models: [] }))
          : by === 'agent'
            ? summary.agents.map((agent) => ({
                label: `${agent.agent} (${agent.sessions} session${agent.sessions === 1 ? '' : 's'})`,
                counts: agent,
                models: agent.models,
              }))
            : summary.sessions.map((session) => ({
                label: session.file,
                counts: session,
                models: session.models,
              }))
    io.out(usageTable(io, by, rows, summary.totals))
    const withUsage = summary.sessions.length
    const { unpricedRequests, unpricedModels } = summary.totals
    io.out(
      `${summary.filesRead} file${summary.filesRead === 1 ? '' : 's'} read, ${withUsage} with usage` +
        `${since !== undefined || until !== undefined ? ` in ${since ?? '…'} – ${until ?? '…'}` : ''}; ` +
        `${summary.totals.requests} model request${summary.totals.requests === 1 ? '' : 's'}.\n` +
        `Prices: ${summary.priceTables.map((t) => `${displayLine(t.source)} (${displayLine(t.date)})`).join('; ')}` +
        `${unpricedRequests > 0 ? `; no price for ${unpricedModels.map(displayLine).join(', ')} (${unpricedRequests} request${unpricedRequests === 1 ? '' : 's'}): cost unknown` : ''}.\n`,
    )
    return code
  },
}

/** A `--prices` file, parsed; `summarizeUsage()` checks its shape and names the first wrong field. */
async function readPrices(file: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const fsError = error as NodeJS.ErrnoException
    throw new CliError(
      `sessiontape usage: cannot read --prices ${displayLine(file)} (${fsError.code ?? 'EIO'}): ${displayLine(fsError.message)}`,
      ExitCode.UNREADABLE,
      fsError.code ?? 'ERR_UNREADABLE',
    )
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new CliError(
      `sessiontape usage: --prices ${displayLine(file)} is not JSON: ${displayLine((error as Error).message)}`,
    )
  }
}
