import { activeBranch, type ActiveBranch } from '../../read/active-branch.js'
import { indexByUuid } from '../../read/check-links.js'
import type { ReadProblem } from '../../read/problem.js'
import { readSession, type ReadSessionResult } from '../../read/read-session.js'
import { CliError, ExitCode, type CliIo } from '../cli-io.js'
import { expectPositionals, parseCommandArgs, stringOption, writeJson, type Command } from '../command.js'
import { formatProblem, formatRecord, formatRecordLine } from '../format-record.js'
import { requireFile } from '../targets.js'

export const showCommand: Command = {
  name: 'show',
  summary: 'print the active branch of a transcript, problems flagged inline',
  help: `Usage: sessiontape show <file> [--leaf <uuid>] [--tree] [--json]

Prints the conversation that ends at the last record (the active branch), root first, by following
parentUuid links back from the leaf. Problems found while reading are flagged inline at their line;
a missing parent or a loop is shown as an explicit gap, never a silent cut.

Options:
  --leaf <uuid>  show the branch that ends at this record instead of the last one
  --tree         show every record as an indented tree of parentUuid links (* = active branch)
  --json         print { filePath, leafUuid, records, gaps, problems } as JSON
  -h, --help     show this help

Exit codes: 0 shown (even with problems: use verify to test), 2 unreadable.
`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('show', args, {
      leaf: { type: 'string' },
      tree: { type: 'boolean' },
    })
    expectPositionals('show', positionals, 1)
    const filePath = await requireFile('show', positionals[0])
    const session = await readSession(filePath)
    const leaf = stringOption(values.leaf)
    if (leaf !== undefined && !session.records.some((record) => record.uuid === leaf)) {
      throw new CliError(`sessiontape show: no record with uuid ${JSON.stringify(leaf)} in ${filePath}`)
    }
    const branch = activeBranch(session.records, leaf)
    if (values.json === true) {
      const { records, gaps, leafUuid } = branch
      writeJson(io, { filePath, leafUuid, records, gaps, problems: session.problems })
    } else if (values.tree === true) io.out(renderTree(filePath, session, branch))
    else renderBranch(io, filePath, session, branch)
    return ExitCode.OK
  },
}

/** Records are printed in batches of this many, so a huge transcript is not one giant string. */
const OUTPUT_BATCH = 500

function renderBranch(io: CliIo, filePath: string, session: ReadSessionResult, branch: ActiveBranch): void {
  const { records, lines, problems } = session
  const lineOf = indexByUuid(records)
  let text = `${filePath}\n${summaryLine(session, branch)}\n`
  for (const gap of branch.gaps) text += `⚠ gap · ${gap.kind} · ${gap.detail}\n`
  text += '\n'
  let nextProblem = 0
  for (let i = 0; i < branch.records.length; i++) {
    const record = branch.records[i]!
    const line = lines[lineOf.get(record.uuid)!]!
    while (nextProblem < problems.length && problems[nextProblem]!.line <= line) {
      text += `${formatProblem(problems[nextProblem++]!)}\n`
    }
    text += formatRecord(record, line)
    if ((i + 1) % OUTPUT_BATCH === 0) {
      io.out(text)
      text = ''
    }
  }
  while (nextProblem < problems.length) text += `${formatProblem(problems[nextProblem++]!)}\n`
  io.out(text)
}

function summaryLine(session: ReadSessionResult, branch: ActiveBranch): string {
  const first = session.records[0]
  const parts = [
    first === undefined ? 'no records' : `session ${first.sessionId}`,
    `${branch.records.length} record(s) on the active branch of ${session.records.length} in the file`,
  ]
  if (branch.leafUuid !== null) parts.push(`leaf ${branch.leafUuid}`)
  parts.push(problemCount(session.problems))
  return parts.join(' · ')
}

function problemCount(problems: readonly ReadProblem[]): string {
  return problems.length === 0 ? 'no problems' : `${problems.length} problem(s), flagged inline below`
}

/**
 * Every record as a tree: a record with one child continues at the same indent, each child of a fork is
 * indented one step. Records no root reaches (their parent is missing, or they loop) start their own trees
 * after a gap marker, so nothing is left out.
 */
function renderTree(filePath: string, session: ReadSessionResult, branch: ActiveBranch): string {
  const { records } = session
  const index = indexByUuid(records)
  const children = new Map<number, number[]>()
  const roots: number[] = []
  for (let i = 0; i < records.length; i++) {
    if (index.get(records[i]!.uuid) !== i) continue
    const parent = records[i]!.parentUuid
    const at = parent === null ? undefined : index.get(parent)
    if (at === undefined) roots.push(i)
    else {
      const siblings = children.get(at)
      if (siblings === undefined) children.set(at, [i])
      else siblings.push(i)
    }
  }
  const onBranch = new Set(branch.records.map((record) => record.uuid))
  const printed = new Uint8Array(records.length)
  let text = `${filePath}\n${summaryLine(session, branch)}\n\n`
  const walk = (start: number, indent: number, label: string): void => {
    const stack: Array<[number, number]> = [[start, indent]]
    if (label !== '') text += `${'  '.repeat(indent)}${label}\n`
    while (stack.length > 0) {
      const [at, depth] = stack.pop()!
      if (printed[at] === 1) continue
      printed[at] = 1
      const record = records[at]!
      text += `${'  '.repeat(depth)}${onBranch.has(record.uuid) ? '*' : '-'} ${record.uuid} ${formatRecordLine(record)}\n`
      const kids = children.get(at) ?? []
      const next = kids.length > 1 ? depth + 1 : depth
      for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k]!, next])
    }
  }
  for (const root of roots) {
    const parent = records[root]!.parentUuid
    walk(root, 0, parent === null ? '' : `⚠ gap · parent ${JSON.stringify(parent)} is not in the file`)
  }
  for (let i = 0; i < records.length; i++) {
    if (printed[i] === 0 && index.get(records[i]!.uuid) === i)
      walk(i, 0, '⚠ gap · these records loop (cycle)')
  }
  for (const problem of session.problems) text += `${formatProblem(problem)}\n`
  return text
}
