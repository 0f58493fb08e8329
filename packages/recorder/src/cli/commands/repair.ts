import path from 'node:path'
import { fileOwnership } from '../../read/file-ownership.js'
import { ForeignFileError } from '../../read/foreign-file-error.js'
import { repairTranscript, type TranscriptRepair } from '../../tail/repair-transcript.js'
import { CliError, ExitCode } from '../cli-io.js'
import { expectPositionals, parseCommandArgs, stringOption, writeJson, type Command } from '../command.js'
import { displayLine } from '../display-text.js'
import { formatProblem } from '../format-record.js'
import { CLI_MAX_LINE_BYTES } from '../limits.js'
import { withSessionLock } from '../session-lock.js'
import { requireFile } from '../targets.js'

export const repairCommand: Command = {
  name: 'repair',
  summary: 'write a repaired copy of a transcript (backup kept)',
  help: `Usage: sessiontape repair <file> [--out <path>] [--dry-run] [--json]

Writes a repaired copy of a transcript: the torn tail and every unreadable line are moved to a
quarantine file next to it (<file>.torn-<time>, byte for byte), glued records are split onto their
own lines, NUL runs are removed; intact lines are kept exactly, and so are torn bytes that a later
\`recovered\` record names (a crash a resumed recorder already explained). The copy is written to a
temporary file, fsynced, and renamed over the original only after a byte-for-byte backup
(<file>.bak-<time>) was made. Orphans, duplicate uuids and cycles are reported, not changed.

Only files that are ours are repaired: a transcript whose first line is a sessiontape record. Any
other file (another tool's JSONL, binary data) is refused and left byte for byte as it was, in a
dry run too. A repair that would keep no record is refused: it never leaves an empty transcript.
What it may write: the quarantine and backup files next to <file>, and <file> itself (replaced
atomically) — or, with --out, only <path>, created new (never through or over a symlink).
A symlink at <file> is not replaced: repair its target, or use --out.

While replacing the original it holds the session's writer lock, so it never races a live recorder.
Memory stays flat; a line over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB cannot be quarantined, so the repair is refused.

Options:
  --out <path>  write the repaired copy to <path> (must not exist) and leave <file> untouched
  --dry-run     only report what would change; write nothing
  --json        print the repair report as JSON
  -h, --help    show this help

Exit codes: 0 repaired or nothing to repair, 1 the session is held by a live recorder,
2 unreadable or the output path exists, 3 refused (not ours, nothing to keep, a symlink, a line
too long): the file is untouched.
`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('repair', args, {
      out: { type: 'string' },
      'dry-run': { type: 'boolean' },
    })
    expectPositionals('repair', positionals, 1)
    const filePath = await requireFile('repair', positionals[0])
    const out = stringOption(values.out)
    const options = {
      ...(out === undefined ? {} : { out: path.resolve(out) }),
      dryRun: values['dry-run'] === true,
      maxLineBytes: CLI_MAX_LINE_BYTES,
    }
    const repair = () =>
      repairTranscript(filePath, options).catch((error: NodeJS.ErrnoException) => {
        const code = error.code ?? 'EREPAIRFAILED'
        const exit = REFUSALS.has(code) ? ExitCode.REFUSED : ExitCode.UNREADABLE
        throw new CliError(`sessiontape repair: ${error.message}`, exit, code)
      })
    // Asked before the lock too: taking it creates `<file>.lock` next to the file, which is not ours to do.
    const owner = await fileOwnership(filePath)
    if (owner.verdict !== 'ours' && owner.verdict !== 'empty') {
      const error = new ForeignFileError(filePath, owner.verdict, owner.reason)
      throw new CliError(`sessiontape repair: ${error.message}`, ExitCode.REFUSED, error.code)
    }
    // Only replacing the original needs the writer lock; a copy elsewhere or a dry run changes nothing.
    const inPlace = options.out === undefined && !options.dryRun
    const locked = inPlace ? await withSessionLock(filePath, repair) : { value: await repair() }
    if (locked === undefined) {
      throw new CliError(
        `sessiontape repair: ${filePath} is being recorded by a live process (its lock ${filePath}.lock is held).\n` +
          'Stop that process first, or write a repaired snapshot elsewhere with --out <path>.',
        ExitCode.PROBLEMS,
        'ESESSIONLOCKED',
      )
    }
    const report = locked.value
    if (values.json === true) writeJson(io, report)
    else io.out(describe(report, options.dryRun))
    return ExitCode.OK
  },
}

/** Refusals: the file was not changed because changing it would be wrong, not because something failed. */
const REFUSALS = new Set(['EFOREIGNFILE', 'ENORECORDS', 'ESYMLINK', 'ELINETOOLONG'])

function describe(report: TranscriptRepair, dryRun: boolean): string {
  const file = displayLine(report.filePath)
  if (report.fixedCount === 0) {
    let text = `${file}: nothing to repair (${report.records} record(s)); no file written\n`
    for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
    return text
  }
  let text = dryRun
    ? `${file}: would repair ${report.fixedCount} problem(s), keeping ${report.records} record(s) (dry run: nothing written)\n`
    : `${file}: repaired ${report.fixedCount} problem(s), kept ${report.records} record(s)\n`
  for (const problem of report.fixed) text += `  fixed: ${formatProblem(problem)}\n`
  if (report.fixedCount > report.fixed.length) {
    text += `  … and ${report.fixedCount - report.fixed.length} more (see --json for the first ${report.fixed.length})\n`
  }
  for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
  if (!dryRun) {
    text += `  repaired transcript: ${displayLine(report.outPath)}\n`
    if (report.backupPath !== null) text += `  backup of the original: ${displayLine(report.backupPath)}\n`
    if (report.quarantinePath !== null) {
      text += `  quarantined bytes: ${displayLine(report.quarantinePath)}\n`
    }
  }
  return text
}
