import { readSession } from '../../read/read-session.js'
import { ExitCode } from '../cli-io.js'
import { expectPositionals, parseCommandArgs, writeJson, type Command } from '../command.js'
import { formatProblem } from '../format-record.js'
import { requireFile } from '../targets.js'

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a transcript and list every problem',
  help: `Usage: sessiontape verify <file> [--json]

Reads a transcript tolerantly and lists every problem with its line number: torn-tail,
invalid-json, not-an-object, glued, nul-run, missing-envelope, orphan, duplicate-uuid, cycle.
Reading never stops at a problem: every valid record around it is counted.

Options:
  --json      print { filePath, ok, records, problems } as JSON
  -h, --help  show this help

Exit codes: 0 clean, 1 problems found, 2 unreadable (missing, a directory, no permission).
`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('verify', args, {})
    expectPositionals('verify', positionals, 1)
    const filePath = await requireFile('verify', positionals[0])
    const { records, problems } = await readSession(filePath)
    const ok = problems.length === 0
    if (values.json === true) writeJson(io, { filePath, ok, records: records.length, problems })
    else {
      let text = `${filePath}: ${records.length} record(s), ${problems.length === 0 ? 'no problems' : `${problems.length} problem(s)`}\n`
      for (const problem of problems) text += `${formatProblem(problem)}\n`
      const repairable = problems.some(
        (p) => p.kind !== 'orphan' && p.kind !== 'duplicate-uuid' && p.kind !== 'cycle',
      )
      if (repairable) text += `To write a repaired copy (with a backup): sessiontape repair ${filePath}\n`
      io.out(text)
    }
    return ok ? ExitCode.OK : ExitCode.PROBLEMS
  },
}
