import path from 'node:path'
import {
  fileOwnership,
  ForeignFileError,
  repairTranscript,
  type TranscriptRepair,
} from '@sessiontape/recorder'
import { CliError, ExitCode } from '../cli-io.js'
import { expectPositionals, parseCommandArgs, stringOption, writeJson, type Command } from '../command.js'
import { displayLine } from '../display-text.js'
import { formatProblem } from '../format-record.js'
import { CLI_MAX_LINE_BYTES } from '../limits.js'
import { lockPathOf } from '@sessiontape/recorder/internal'
import { sidecarPathFor } from '@sessiontape/recorder/internal'
import { withSessionLock } from '@sessiontape/recorder/internal'
import { requireFile } from '../targets.js'
import { refuseSqlite } from '../opencode-target.js'

export const repairCommand: Command = {
  name: 'repair',
  summary: 'repair a transcript: a torn tail in place (append-only), other damage into a new copy',
  usage: 'repair <file> [--out <path>] [--dry-run] [--json]',
  description: `
Repairs a transcript without ever rewriting it, so a log shipper tailing it never ships it twice:

- A torn tail (a crash mid-write) and nothing else is repaired in place, append-only, the way a
  resuming recorder does it: the torn bytes stay, a newline ends them and a \`recovered\` record
  naming their byte range is appended. Readers then report them as recovered, not as damage.
- Any other line damage gets a repaired copy under a new name that a shipper's *.jsonl or * glob
  does not match (<dir>/.sessiontape/<name>.repaired-<time>): unreadable lines and the torn tail
  are left out, glued records split onto their own lines, NUL runs removed; intact lines are kept
  byte for byte, and so are torn bytes that a later \`recovered\` record names. The transcript
  itself is not changed; the output says how to switch to the copy (two renames, the original kept
  in .sessiontape). Orphans, duplicate uuids and cycles are reported, not changed.

Only files that are ours are repaired: a transcript whose first line is a sessiontape record. Any
other file (another tool's JSONL, binary data) is refused and left byte for byte as it was, in a
dry run too. A copy that would keep no record is refused.
What it may write: a newline and one \`recovered\` record appended to <file> (torn tail only), or a
new file in <dir>/.sessiontape/ — or, with --out, only <path>, created new (never through or over a
symlink), and <file> is never written. A symlink at <file> is not appended through: repair its
target, or use --out.

It holds the session's writer lock while it works (not with --out or --dry-run), so it never races
a live recorder. Memory stays flat; a line over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB cannot be copied, so such a copy is refused.
`,
  options: [
    {
      name: 'out',
      value: '<path>',
      help: 'write the repaired copy to <path> (must not exist), even for a torn tail',
    },
    { name: 'dry-run', help: 'only report what would change; write nothing' },
    { name: 'json', help: 'print the repair report as JSON' },
  ],
  exitCodes: `0 repaired or nothing to repair, 1 the session is held by a live recorder, 2 unreadable or the output path exists, 3 refused (not ours, nothing to keep, a symlink to append through, a line too long, a SQLite database such as OpenCode's opencode.db): the file is untouched.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(repairCommand, args)
    expectPositionals('repair', positionals, 1)
    await refuseSqlite('repair', positionals[0])
    const filePath = await requireFile('repair', positionals[0])
    const out = stringOption(values.out)
    const options = {
      ...(out === undefined ? {} : { out: path.resolve(out) }),
      dryRun: values['dry-run'] === true,
      maxLineBytes: CLI_MAX_LINE_BYTES,
    }
    const repair = () =>
      repairTranscript(filePath, options).catch((error: NodeJS.ErrnoException) => {
        const code = error.code ?? 'ERR_REPAIR_FAILED'
        const exit = REFUSALS.has(code) ? ExitCode.REFUSED : ExitCode.UNREADABLE
        throw new CliError(`sessiontape repair: ${error.message}`, exit, code)
      })
    // Asked before the lock too: taking it creates `<file>.lock` next to the file, which is not ours to do.
    const owner = await fileOwnership(filePath)
    if (owner.verdict !== 'ours' && owner.verdict !== 'empty') {
      const error = new ForeignFileError(filePath, owner.verdict, owner.reason)
      throw new CliError(`sessiontape repair: ${error.message}`, ExitCode.REFUSED, error.code)
    }
    // Appending to the original needs the writer lock; a copy is made under it too, so it is not a
    // snapshot of a session still being written. A copy elsewhere or a dry run changes nothing.
    const inPlace = options.out === undefined && !options.dryRun
    const locked = inPlace ? await withSessionLock(filePath, repair) : { value: await repair() }
    if (locked === undefined) {
      throw new CliError(
        `sessiontape repair: ${filePath} is being recorded by a live process (its lock ${lockPathOf(filePath)} is held).\n` +
          'Stop that process first, or write a repaired snapshot elsewhere with --out <path>.',
        ExitCode.PROBLEMS,
        'ERR_SESSION_LOCKED',
      )
    }
    const report = locked.value
    if (values.json === true) writeJson(io, report)
    else io.out(describe(report, options.dryRun))
    return ExitCode.OK
  },
}

/** Refusals: the file was not changed because changing it would be wrong, not because something failed. */
const REFUSALS = new Set([
  'ERR_FOREIGN_FILE',
  'ERR_REPAIR_NO_RECORDS',
  'ERR_REPAIR_SYMLINK',
  'ERR_LINE_TOO_LONG',
])

function describe(report: TranscriptRepair, dryRun: boolean): string {
  const file = displayLine(report.filePath)
  if (report.fixedCount === 0) {
    let text = `${file}: nothing to repair (${report.records} record(s)); no file written\n`
    for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
    return text
  }
  const how =
    report.action === 'appended'
      ? 'in place, append-only (the torn bytes stay; a `recovered` record names them)'
      : 'into a new copy (the transcript is not changed)'
  let text = dryRun
    ? `${file}: would repair ${report.fixedCount} problem(s) ${how}, keeping ${report.records} record(s) (dry run: nothing written)\n`
    : `${file}: repaired ${report.fixedCount} problem(s) ${how}, kept ${report.records} record(s)\n`
  for (const problem of report.fixed) text += `  fixed: ${formatProblem(problem)}\n`
  if (report.fixedCount > report.fixed.length) {
    text += `  … and ${report.fixedCount - report.fixed.length} more (see --json for the first ${report.fixed.length})\n`
  }
  for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
  if (dryRun) return text
  if (report.action === 'appended') {
    text += `  appended: a \`recovered\` record (${displayLine(report.recoveredUuid ?? '')}); nothing before it changed\n`
    return text
  }
  const copy = report.outPath ?? ''
  const original = sidecarPathFor(report.filePath, 'orig', new Date(), 0)
  text += `  repaired copy: ${displayLine(copy)}\n`
  text +=
    '  To switch to it, stop the recorder of this session, then (the original is kept in .sessiontape):\n' +
    `    mv -n -- ${shellWord(report.filePath)} ${shellWord(original)}\n` +
    `    mv -n -- ${shellWord(copy)} ${shellWord(report.filePath)}\n` +
    '  A log shipper tailing the transcript then sees a new file and ships it from the start:\n' +
    '  deduplicate by `uuid` downstream (records already shipped arrive again).\n'
  return text
}

/** A path as one shell word, quoted when needed, terminal-safe (control characters escaped). */
function shellWord(value: string): string {
  const safe = displayLine(value)
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(safe) ? safe : `'${safe.replaceAll("'", "'\\''")}'`
}
