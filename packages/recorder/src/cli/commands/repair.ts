import path from 'node:path'
import { repairTranscript, type TranscriptRepair } from '../../tail/repair-transcript.js'
import { CliError, ExitCode } from '../cli-io.js'
import { expectPositionals, parseCommandArgs, stringOption, writeJson, type Command } from '../command.js'
import { formatProblem } from '../format-record.js'
import { withSessionLock } from '../session-lock.js'
import { requireFile } from '../targets.js'

export const repairCommand: Command = {
  name: 'repair',
  summary: 'write a repaired copy of a transcript (backup kept)',
  help: `Usage: sessiontape repair <file> [--out <path>] [--dry-run] [--json]

Writes a repaired copy of a transcript: the torn tail and every unreadable line are moved to a
quarantine file next to it (<file>.torn-<time>, byte for byte), glued records are split onto their
own lines, NUL runs are removed; intact lines are kept exactly. The copy is written to a temporary
file, fsynced, and renamed over the original only after a byte-for-byte backup (<file>.bak-<time>)
was made. Orphans, duplicate uuids and cycles are reported, not changed.

While replacing the original it holds the session's writer lock, so it never races a live recorder.

Options:
  --out <path>  write the repaired copy to <path> (must not exist) and leave <file> untouched
  --dry-run     only report what would change
  --json        print the repair report as JSON
  -h, --help    show this help

Exit codes: 0 repaired or nothing to repair, 1 the session is held by a live recorder,
2 unreadable or the output path exists.
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
    }
    const repair = () =>
      repairTranscript(filePath, options).catch((error: NodeJS.ErrnoException) => {
        throw new CliError(`sessiontape repair: ${error.message}`)
      })
    // Only replacing the original needs the writer lock; a copy elsewhere or a dry run changes nothing.
    const inPlace = options.out === undefined && !options.dryRun
    const locked = inPlace ? await withSessionLock(filePath, repair) : { value: await repair() }
    if (locked === undefined) {
      throw new CliError(
        `sessiontape repair: ${filePath} is being recorded by a live process (its lock ${filePath}.lock is held).\n` +
          'Stop that process first, or write a repaired snapshot elsewhere with --out <path>.',
        ExitCode.PROBLEMS,
      )
    }
    const report = locked.value
    if (values.json === true) writeJson(io, report)
    else io.out(describe(report, options.dryRun))
    return ExitCode.OK
  },
}

function describe(report: TranscriptRepair, dryRun: boolean): string {
  if (report.fixed.length === 0) {
    let text = `${report.filePath}: nothing to repair (${report.records} record(s)); no file written\n`
    for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
    return text
  }
  let text = dryRun
    ? `${report.filePath}: would repair ${report.fixed.length} problem(s), keeping ${report.records} record(s) (dry run: nothing written)\n`
    : `${report.filePath}: repaired ${report.fixed.length} problem(s), kept ${report.records} record(s)\n`
  for (const problem of report.fixed) text += `  fixed: ${formatProblem(problem)}\n`
  for (const problem of report.remaining) text += `  not changed: ${formatProblem(problem)}\n`
  if (!dryRun) {
    text += `  repaired transcript: ${report.outPath}\n`
    if (report.backupPath !== null) text += `  backup of the original: ${report.backupPath}\n`
    if (report.quarantinePath !== null) text += `  quarantined bytes: ${report.quarantinePath}\n`
  }
  return text
}
