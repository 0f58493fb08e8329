import path from 'node:path'
import { listSessions, type SessionSummary } from '@sessiontape/recorder/internal'
import { ExitCode } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { shortTime } from '../format-record.js'
import { requireDirectory } from '../targets.js'

const TITLE_CHARS = 50

export const listCommand: Command = {
  name: 'list',
  summary: 'list the sessions in a directory, newest first',
  usage: 'list <dir> [--format <f>] [--json] [--rebuild-meta]',
  description: `
Lists every session (every <sessionId>.jsonl) in <dir>, newest first: last update, record count,
session id and title. Figures come from the <sessionId>.meta.json sidecars; a missing, corrupt or
stale sidecar is rebuilt in memory from its transcript. A session whose files cannot be parsed is
still listed, with a note; nothing is ever hidden or deleted. Titles and names are shown with
control characters made visible.

Claude Code, Qwen Code and Gemini CLI session directories are listed too (~/.claude/projects/<project>,
~/.qwen/projects/<project>/chats, ~/.gemini/tmp/<hash>/chats), read from their transcripts: titles
(custom-title, ai-title, summary, Qwen's custom_title, Gemini's summary), record counts, and each
Claude session's subagent transcripts. A directory with no transcript of its own (~/.claude/projects,
~/.gemini/tmp) is listed one level down. Nothing is ever written for another agent's session.

Writes nothing, unless --rebuild-meta is given: then a rebuilt sidecar is saved, only when its
transcript is ours, never through a symlink, never over a file at that name that is not a
sidecar of ours (other tools keep *.meta.json files too), atomically (temp file + rename).
`,
  options: [
    { name: 'json', help: 'print the sessions as a JSON array' },
    { name: 'rebuild-meta', help: 'save rebuilt sidecars (see above)' },
    FORMAT_OPTION,
  ],
  exitCodes: `0 listed (even with notes), 2 <dir> missing or not a directory.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(listCommand, args)
    const format = formatOption('list', values.format)
    expectPositionals('list', positionals, 1)
    const dir = await requireDirectory('list', positionals[0])
    const sessions = await listSessions(dir, {
      writeRebuiltMeta: values['rebuild-meta'] === true && values['no-save'] !== true,
      format,
    })
    if (values.json === true) writeJson(io, sessions)
    else io.out(formatTable(dir, sessions))
    return ExitCode.OK
  },
}

function formatTable(dir: string, sessions: readonly SessionSummary[]): string {
  if (sessions.length === 0) return `No sessions in ${displayLine(dir)}\n`
  // Another agent's sessions say whose they are; a directory of ours alone keeps the familiar four columns.
  const agents = sessions.some((s) => s.format !== 'sessiontape')
  const rows = sessions.map((s) => [
    shortTime(s.updatedAt),
    String(s.recordCount),
    displayLine(s.sessionId),
    ...(agents ? [s.format] : []),
    title(s),
  ])
  const header = ['UPDATED', 'RECORDS', 'SESSION', ...(agents ? ['FORMAT'] : []), 'TITLE']
  const widths = header.map((h, column) => Math.max(h.length, ...rows.map((row) => row[column]!.length)))
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd()
  let text = `${render(header)}\n`
  for (let i = 0; i < rows.length; i++) {
    text += `${render(rows[i]!)}\n`
    const { note, subagents, filePath } = sessions[i]!
    if (agents && path.dirname(filePath) !== dir) text += `  ↳ ${displayLine(filePath)}\n`
    if (subagents !== undefined) text += `  ↳ ${subagents.length} subagent transcript(s)\n`
    if (note !== undefined) text += `  ↳ ${displayLine(note)}\n`
  }
  return `${text}${sessions.length} session(s) in ${displayLine(dir)}\n`
}

function title(session: SessionSummary): string {
  const text = (session.title ?? '').slice(0, TITLE_CHARS * 4).replace(/\s+/g, ' ')
  return displayLine(text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS)}…` : text)
}
