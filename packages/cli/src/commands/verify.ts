import { scanTranscript, type TranscriptScan } from '@sessiontape/recorder/internal'
import { ExitCode, styleOf } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { formatProblem, formatRecovered } from '../format-record.js'
import { CLI_KEEP_PROBLEMS, CLI_MAX_LINE_BYTES } from '../limits.js'
import { requireFile } from '../targets.js'
import { refuseSqlite } from '../opencode-target.js'
import { requireKnownFormat } from '../known-format.js'

const LINK_KINDS = new Set(['orphan', 'duplicate-uuid', 'cycle'])

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a transcript and list every problem',
  usage: 'verify <file> [--format <f>] [--json]',
  description: `
Reads a transcript tolerantly and lists every problem with its line number: torn-tail,
invalid-json, too-long, not-an-object, glued, nul-run, missing-envelope, orphan, duplicate-uuid,
cycle. Reading never stops at a problem: every valid record around it is counted. Torn bytes a
later \`recovered\` record names (a crash that a resumed recorder explained) are listed as
recovered, not as problems. Works on any file, ours or not; writes nothing.

Claude Code, Qwen Code and Gemini CLI sessions are read with their own rules (recognised from the
content): their metadata lines (summary, custom-title, file-history-snapshot, Gemini's $set…) are
counted as metadata, a complete last line without a newline is a record, and a first record whose
parent is in an earlier session file (a resumed session) is listed as such, not as an orphan.

Memory stays flat: one streaming pass, lines over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB are reported (too-long)
and skipped unread, the first ${CLI_KEEP_PROBLEMS} problems are listed and the rest counted by kind.
`,
  options: [
    FORMAT_OPTION,
    {
      name: 'json',
      help: 'print { filePath, format, ok, records, metadata, problemCount, problemsByKind, problems, recoveredCount, recovered, earlierSession } as JSON',
    },
  ],
  exitCodes: `0 clean (recovered torn lines included), 1 problems found, 2 unreadable (missing, a directory, no permission) or not a JSONL transcript (a SQLite database such as OpenCode's opencode.db: ERR_NOT_A_TRANSCRIPT), or a file of no format it reads: \`unknown format\` (ERR_UNKNOWN_FORMAT; --format reads it as the format given).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(verifyCommand, args)
    expectPositionals('verify', positionals, 1)
    await refuseSqlite('verify', positionals[0])
    const format = formatOption('verify', values.format)
    const filePath = await requireFile('verify', positionals[0])
    await requireKnownFormat('verify', filePath, format)
    const scan = await scanTranscript(filePath, {
      format,
      signal: io.signal,
      maxLineBytes: CLI_MAX_LINE_BYTES,
      keep: CLI_KEEP_PROBLEMS,
    })
    const ok = scan.problemCount === 0
    if (values.json === true) {
      const { records, problemCount, problemsByKind, problems, recoveredCount, recovered } = scan
      writeJson(io, {
        filePath,
        format: scan.format,
        ok,
        records,
        metadata: scan.metadataCount,
        problemCount,
        problemsByKind,
        problems,
        recoveredCount,
        recovered,
        earlierSession: scan.earlierSession,
      })
    } else io.out(describe(filePath, scan, io))
    return ok ? ExitCode.OK : ExitCode.PROBLEMS
  },
}

function describe(filePath: string, scan: TranscriptScan, io: Parameters<Command['run']>[1]): string {
  const style = styleOf(io)
  const shownPath = displayLine(filePath)
  const problems = scan.problemCount === 0 ? 'no problems' : `${scan.problemCount} problem(s)`
  const recovered = scan.recoveredCount === 0 ? '' : `, ${scan.recoveredCount} recovered torn line(s)`
  const foreign =
    scan.format === 'sessiontape'
      ? ''
      : ` (${scan.format}${scan.metadataCount === 0 ? '' : `, ${scan.metadataCount} metadata line(s)`})`
  let text = `${shownPath}${foreign}: ${scan.records} record(s), ${problems}${recovered}\n`
  for (const link of scan.earlierSession)
    text += `${style.dim(`⤴ line ${link.line} · earlier session · ${displayLine(link.detail)}`)}\n`
  // Problems and recovered lines, merged in line order.
  const entries = [
    ...scan.problems.map((p) => ({ line: p.line, text: formatProblem(p, style) })),
    ...scan.recovered.map((r) => ({ line: r.line, text: formatRecovered(r, style) })),
  ].sort((a, b) => a.line - b.line)
  for (const entry of entries) text += `${entry.text}\n`
  const unlisted = scan.problemCount - scan.problems.length
  if (unlisted > 0) {
    const byKind = Object.entries(scan.problemsByKind)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ')
    text += `… ${unlisted} more problem(s) not listed (all problems by kind: ${byKind})\n`
  }
  const repairable = Object.keys(scan.problemsByKind).some((kind) => !LINK_KINDS.has(kind))
  // repair writes a copy of ours only: another tool's file is never offered to it. It works on one file: in
  // a session kept in segments, the files that hold the damage are named.
  if (repairable && scan.format === 'sessiontape') {
    const damaged = new Set(
      scan.problems.filter((p) => !LINK_KINDS.has(p.kind)).map((p) => p.file ?? filePath),
    )
    for (const file of damaged.size === 0 ? [filePath] : damaged)
      text += `To repair it (never rewriting it): sessiontape repair ${displayLine(file)}\n`
  }
  return text
}
