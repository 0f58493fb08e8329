import { CliError, ExitCode } from '../cli-io.js'
import { resolveFormat } from '@sessiontape/recorder/internal'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  stringOption,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { followFile } from '../follow-file.js'
import { CLI_MAX_LINE_BYTES } from '../limits.js'
import { requireFile } from '../targets.js'
import { styleOf } from '../cli-io.js'
import { DEFAULT_COLUMNS } from './tail-columns.js'
import { formatTailLine } from './tail-line.js'

const DEFAULT_COUNT = 10

export const tailCommand: Command = {
  name: 'tail',
  summary: 'print the last records of a transcript; -f follows a live session',
  usage: 'tail [-f] [-n <count>] <file> [--format <f>] [--json]',
  description: `
Prints the last <count> records of a transcript, one line each (line number, time, type, text),
cut with … to fit the terminal's width (COLUMNS if set; 80 columns when not on a terminal),
reading from the end of the file: a file over 1 MiB is not read whole, and its records are
labelled by byte offset (@<offset>) instead of line number. With -f it keeps running and prints
every record as soon as its line is complete, until Ctrl-C (which ends it by SIGINT). A partial last line is a write in
progress and is printed once its newline arrives. Torn bytes a later \`recovered\` record names
are marked as recovered (↺). If the file is truncated or replaced (a repair), tail says so on
stderr and goes on after the last record it read (in a replaced file: after the line that holds
that record, or from its end if none does). Control characters from the file are shown as visible
symbols. Lines over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB are reported as too-long and skipped unread. Writes nothing.

Claude Code and Qwen Code sessions are followed the same way (their metadata lines are skipped). A
Gemini CLI session is shown line by line as written: a message re-appended with its tool calls shows
again, and a $rewindTo takes nothing back (sessiontape show replays it). Gemini's older single JSON
document has no lines to follow: use show.
`,
  options: [
    { name: 'follow', short: 'f', help: 'keep following the file as it grows' },
    {
      name: 'lines',
      short: 'n',
      value: '<count>',
      help: `how many existing records to print first (default ${DEFAULT_COUNT})`,
    },
    FORMAT_OPTION,
    {
      name: 'json',
      help: 'print each record as one JSON line (problems and recovered lines go to stderr as JSON lines)',
    },
  ],
  exitCodes: `0 done, 2 unreadable; Ctrl-C (which ends -f) or another stop signal: ends by that signal, as every command does (a shell shows 130 for Ctrl-C).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(tailCommand, args)
    const formatGiven = formatOption('tail', values.format)
    expectPositionals('tail', positionals, 1)
    const lines = stringOption(values.lines)
    const count = lines === undefined ? DEFAULT_COUNT : Number(lines)
    if (!(Number.isSafeInteger(count) && count >= 0)) {
      throw new CliError(
        `sessiontape tail: expected -n to be a non-negative integer, got ${JSON.stringify(lines)}`,
        ExitCode.UNREADABLE,
        'ERR_USAGE',
      )
    }
    const filePath = await requireFile('tail', positionals[0])
    const format = await resolveFormat(filePath, formatGiven)
    if (format === 'gemini-json') {
      throw new CliError(
        `sessiontape tail: ${displayLine(filePath)} is one JSON document (Gemini CLI's older format), not lines to follow; use: sessiontape show ${displayLine(filePath)}`,
        ExitCode.UNREADABLE,
        'ERR_NOT_LINES',
      )
    }
    if (filePath.endsWith('.zst')) {
      // Follow reads the file's bytes from its end; a compressed file can only be read from its start.
      throw new CliError(
        `sessiontape tail: ${displayLine(filePath)} is compressed (a closed Codex rollout), not lines to follow; use: sessiontape show ${displayLine(filePath)}`,
        ExitCode.UNREADABLE,
        'ERR_NOT_LINES',
      )
    }
    await followFile(
      filePath,
      {
        follow: values.follow === true,
        count,
        json: values.json === true,
        format,
        recordLine: (where, record) =>
          formatTailLine(where, record, io.columns?.() ?? DEFAULT_COLUMNS, styleOf(io)),
      },
      io,
    )
    return ExitCode.OK
  },
}
