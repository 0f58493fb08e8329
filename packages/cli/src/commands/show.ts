import {
  activeBranch,
  readSession,
  type ActiveBranch,
  type BranchGap,
  type ReadSessionResult,
  type SessionRecord,
} from '@sessiontape/recorder'
import { indexByUuid } from '@sessiontape/recorder/internal'
import { classifiedLines } from '@sessiontape/recorder/internal'
import { isLeafCandidate, linkParentOf } from '@sessiontape/recorder/internal'
import { scanTranscript, type TranscriptScan } from '@sessiontape/recorder/internal'
import { quoteJson, stringifyJson } from '@sessiontape/recorder/internal'
import { CliError, ExitCode, drained, styleOf, type CliIo } from '../cli-io.js'
import {
  FORMAT_OPTION,
  expectPositionals,
  formatOption,
  parseCommandArgs,
  stringOption,
  writeJson,
  type Command,
} from '../command.js'
import { displayLine } from '../display-text.js'
import { formatProblem, formatRecord, formatRecordLine, formatRecovered } from '../format-record.js'
import { indexBranch, type IndexBranch } from '../index-branch.js'
import { CLI_KEEP_PROBLEMS, CLI_MAX_LINE_BYTES } from '../limits.js'
import type { Style } from '../style.js'
import { requireFile } from '../targets.js'
import { openCodeTarget } from '../opencode-target.js'
import { requireKnownFormat } from '../known-format.js'

export const showCommand: Command = {
  name: 'show',
  summary: 'print a session as a conversation (--raw: its records, problems flagged inline)',
  usage: 'show <file> [--raw] [--leaf <uuid>] [--tree] [--format <f>] [--json] [--no-pager]',
  description: `
By default, prints the session as a conversation: each message's role, time and text, and each
tool call and result on one line (the tool's name and a short summary of its input; the result's
size and first line), the active branch only, for every agent's format. On a terminal it goes
through a pager as git log does ($PAGER, else less -R; --no-pager or a pipe: none). Holds the
session in memory.

--raw (implied by --leaf, --tree and --json) prints the records themselves: the conversation that
ends at the last record (the active branch), root first, by following
parentUuid links back from the leaf. Claude Code, Qwen Code and Gemini CLI sessions are read with
their own rules (recognised from the content): the leaf is the last record that is not a sidechain,
a compaction (compact_boundary) is crossed through its logicalParentUuid, and a Gemini session is
replayed ($set, $rewindTo) so only the messages left are shown. Every record type is shown readably: its text first, then
each other field (tool calls, tool results, anything else) as \`key: value\`, values as compact
JSON. Problems found while reading are flagged inline at their line (torn bytes a later
\`recovered\` record names are marked ↺ recovered); a missing parent or a loop is shown as an
explicit gap, never a silent cut. Control characters and escape sequences in the file are shown
as visible symbols, never sent to the terminal. Colour only on a terminal (NO_COLOR, FORCE_COLOR).
Writes nothing.

Memory stays flat (two streaming passes: link index, then printing); --tree holds the file's
records in memory. Lines over ${CLI_MAX_LINE_BYTES / 1024 / 1024} MiB are reported as too-long and skipped unread.
`,
  options: [
    {
      name: 'leaf',
      value: '<uuid>',
      help: 'show the branch that ends at this record instead of the last one',
    },
    { name: 'raw', help: 'print the records (every field) instead of the conversation' },
    { name: 'no-pager', help: 'never page the conversation (a pipe never is)' },
    {
      name: 'tree',
      help: 'show every record as an indented tree of parentUuid links (* = active branch)',
    },
    FORMAT_OPTION,
    {
      name: 'json',
      help: 'print { filePath, leafUuid, records, gaps, problems, problemCount, recovered } as JSON',
    },
  ],
  exitCodes: `0 shown (even with problems: use verify to test), 2 unreadable, or a file of no format it reads: \`unknown format\` (ERR_UNKNOWN_FORMAT; --format reads it as the format given).`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(showCommand, args)
    expectPositionals('show', positionals, 1)
    const store = await openCodeTarget(positionals[0])
    if (store !== undefined)
      return (await import('../opencode-db.js')).showStore(store, values.json === true, io)
    const format = formatOption('show', values.format)
    const filePath = await requireFile('show', positionals[0])
    await requireKnownFormat('show', filePath, format)
    const leaf = stringOption(values.leaf)
    if (values.raw !== true && values.tree !== true && values.json !== true && leaf === undefined) {
      // Loaded here, not at the top: the raw view starts without the conversation model's code.
      const { showConversation } = await import('../conversation-text.js')
      await showConversation(filePath, format, values['no-pager'] === true, io)
      return ExitCode.OK
    }
    if (values.tree === true) {
      const session = await readSession(filePath, {
        signal: io.signal,
        maxLineBytes: CLI_MAX_LINE_BYTES,
        format,
      })
      if (leaf !== undefined && !session.records.some((record) => record.uuid === leaf))
        throw noLeaf(leaf, filePath)
      const branch = activeBranch(session.records, leaf)
      if (values.json === true) {
        const { records, gaps, leafUuid } = branch
        writeJson(io, {
          filePath,
          leafUuid,
          records,
          gaps,
          problems: session.problems,
          recovered: session.recovered,
        })
      } else io.out(renderTree(filePath, session, branch, styleOf(io)))
      return ExitCode.OK
    }
    let sessionId: string | undefined
    let leafCandidate: string | null = null
    const scan = await scanTranscript(filePath, {
      format,
      signal: io.signal,
      maxLineBytes: CLI_MAX_LINE_BYTES,
      keep: CLI_KEEP_PROBLEMS,
      onRecord: (record) => {
        sessionId ??= record.sessionId
        if (isLeafCandidate(record)) leafCandidate = record.uuid
      },
    })
    let leafIndex = scan.leafIndex
    if (leaf !== undefined) {
      const at = scan.links.indexOf(leaf)
      if (at === undefined) throw noLeaf(leaf, filePath)
      leafIndex = at
    }
    const branch = leafIndex < 0 ? undefined : indexBranch(scan.links, leafIndex)
    // The second pass needs only the branch: the uuid map (most of the index's memory) can go.
    scan.links.releaseUuids()
    const leafUuid = leaf ?? leafCandidate ?? scan.lastUuid
    await printBranch(filePath, { scan, branch, sessionId, leafUuid }, values.json === true, io)
    return ExitCode.OK
  },
}

function noLeaf(leaf: string, filePath: string): CliError {
  return new CliError(
    `sessiontape show: no record with uuid ${JSON.stringify(leaf)} in ${filePath}`,
    ExitCode.UNREADABLE,
    'ERR_NO_LEAF',
  )
}

/** Output is handed to stdout in pieces of about this size, waiting for it to drain in between. */
const OUTPUT_BATCH_CHARS = 256 * 1024

/**
 * Second pass: streams the file again and prints the records on the branch as they come (the writer's
 * order puts every parent before its children, so root → leaf is file order). A branch that is not in
 * file order (links that point forward, in a file some other tool wrote) is collected first.
 */
async function printBranch(
  filePath: string,
  found: {
    readonly scan: TranscriptScan
    readonly branch: IndexBranch | undefined
    readonly sessionId: string | undefined
    readonly leafUuid: string | null
  },
  json: boolean,
  io: CliIo,
): Promise<void> {
  const { scan, branch, sessionId, leafUuid } = found
  const style = styleOf(io)
  const onBranch = new Uint8Array(scan.records)
  if (branch !== undefined) for (const i of branch.indices) onBranch[i] = 1
  const first = branch?.indices[0]
  const gaps: BranchGap[] = []
  const notes = json
    ? []
    : [
        ...scan.problems.map((p) => ({ line: p.line, text: formatProblem(p, style) })),
        ...scan.recovered.map((r) => ({ line: r.line, text: formatRecovered(r, style) })),
      ].sort((a, b) => a.line - b.line)
  let nextNote = 0
  let text = ''
  let firstRecord = true
  const flush = async (): Promise<void> => {
    if (text.length > 0) io.out(text)
    text = ''
    await drained(io)
  }
  const collected = new Map<number, { record: SessionRecord; line: number }>()
  const emit = (record: SessionRecord, line: number): void => {
    if (json) {
      text += `${firstRecord ? '\n' : ',\n'}    ${stringifyJson(record, { indent: 2, baseDepth: 2 })}`
    } else {
      while (nextNote < notes.length && notes[nextNote]!.line <= line) text += `${notes[nextNote++]!.text}\n`
      text += formatRecord(record, line, style)
    }
    firstRecord = false
  }
  if (json) text += `{\n  "filePath": ${quoteJson(filePath)},\n  "records": [`
  else {
    text += `${style.bold(displayLine(filePath))}\n${summaryLine(sessionId, scan, branch, leafUuid)}\n`
  }
  let index = 0
  for await (const batch of classifiedLines(filePath, {
    signal: io.signal,
    maxLineBytes: CLI_MAX_LINE_BYTES,
    format: scan.format,
  })) {
    for (const entry of batch) {
      for (const record of entry.records) {
        const i = index++
        if (onBranch[i] !== 1) continue
        if (i === first) {
          // The first record of the branch is where a gap is: say so above it, at the top of the output.
          if (branch!.stop !== 'root') gaps.push(gapOf(record, branch!, scan))
          if (!json)
            text += `${gaps.map((gap) => `${style.warn(`⚠ gap · ${gap.kind} · ${displayLine(gap.detail)}`)}\n`).join('')}\n`
        }
        if (branch!.inFileOrder) emit(record, entry.line)
        else collected.set(i, { record, line: entry.line })
      }
    }
    if (text.length >= OUTPUT_BATCH_CHARS) await flush()
  }
  if (!json && first === undefined) text += '\n'
  if (branch !== undefined && !branch.inFileOrder) {
    for (const i of branch.indices) {
      const found = collected.get(i)
      if (found !== undefined) emit(found.record, found.line)
      if (text.length >= OUTPUT_BATCH_CHARS) await flush()
    }
  }
  if (json) {
    text += `${firstRecord ? '' : '\n  '}],\n  "leafUuid": ${leafUuid === null ? 'null' : quoteJson(leafUuid)}`
    text += `,\n  "gaps": ${stringifyJson(gaps, { indent: 2, baseDepth: 1 })}`
    text += `,\n  "problems": ${stringifyJson(scan.problems, { indent: 2, baseDepth: 1 })}`
    text += `,\n  "problemCount": ${scan.problemCount}`
    text += `,\n  "recovered": ${stringifyJson(scan.recovered, { indent: 2, baseDepth: 1 })}\n}\n`
  } else {
    while (nextNote < notes.length) text += `${notes[nextNote++]!.text}\n`
    const unlisted = scan.problemCount - scan.problems.length
    if (unlisted > 0)
      text += `${style.warn(`⚠ … ${unlisted} more problem(s) not shown: sessiontape verify lists them by kind`)}\n`
  }
  await flush()
}

function gapOf(record: SessionRecord, branch: IndexBranch, scan: TranscriptScan): BranchGap {
  const parentUuid = linkParentOf(record) ?? ''
  const earlier = scan.earlierSession.some((link) => link.uuid === record.uuid)
  return branch.stop === 'cycle'
    ? {
        kind: 'cycle',
        childUuid: record.uuid,
        parentUuid,
        detail: `parent links loop back to ${JSON.stringify(parentUuid)}; the walk stopped there`,
      }
    : {
        kind: 'missing-parent',
        childUuid: record.uuid,
        parentUuid,
        detail: earlier
          ? `the session continues an earlier session file: parent ${JSON.stringify(parentUuid)} of ${JSON.stringify(record.uuid)} is there, not in this file`
          : `history before ${JSON.stringify(record.uuid)} is lost: its parent ${JSON.stringify(parentUuid)} is not in the transcript`,
      }
}

function summaryLine(
  sessionId: string | undefined,
  scan: TranscriptScan,
  branch: IndexBranch | undefined,
  leafUuid: string | null,
): string {
  const parts = [
    ...(scan.format === 'sessiontape' ? [] : [scan.format]),
    sessionId === undefined ? 'no records' : `session ${displayLine(sessionId)}`,
    `${branch?.indices.length ?? 0} record(s) on the active branch of ${scan.records} in the file`,
  ]
  if (leafUuid !== null) parts.push(`leaf ${displayLine(leafUuid)}`)
  parts.push(
    scan.problemCount === 0 ? 'no problems' : `${scan.problemCount} problem(s), flagged inline below`,
  )
  if (scan.recoveredCount > 0) parts.push(`${scan.recoveredCount} recovered torn line(s)`)
  return parts.join(' · ')
}

/**
 * Every record as a tree: a record with one child continues at the same indent, each child of a fork is
 * indented one step. Records no root reaches (their parent is missing, or they loop) start their own trees
 * after a gap marker, so nothing is left out.
 */
function renderTree(
  filePath: string,
  session: ReadSessionResult,
  branch: ActiveBranch,
  style: Style,
): string {
  const { records } = session
  const index = indexByUuid(records)
  const children = new Map<number, number[]>()
  const roots: number[] = []
  for (let i = 0; i < records.length; i++) {
    if (index.get(records[i]!.uuid) !== i) continue
    const parent = linkParentOf(records[i]!)
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
  const first = records[0]
  const problems = session.problems.length
  let text = `${style.bold(displayLine(filePath))}\n${first === undefined ? 'no records' : `session ${displayLine(first.sessionId)}`} · ${branch.records.length} record(s) on the active branch of ${records.length} in the file · ${problems === 0 ? 'no problems' : `${problems} problem(s), listed below`}\n\n`
  const walk = (start: number, indent: number, label: string): void => {
    const stack: Array<[number, number]> = [[start, indent]]
    if (label !== '') text += `${'  '.repeat(indent)}${style.warn(label)}\n`
    while (stack.length > 0) {
      const [at, depth] = stack.pop()!
      if (printed[at] === 1) continue
      printed[at] = 1
      const record = records[at]!
      text += `${'  '.repeat(depth)}${onBranch.has(record.uuid) ? '*' : '-'} ${displayLine(record.uuid)} ${formatRecordLine(record, style)}\n`
      const kids = children.get(at) ?? []
      const next = kids.length > 1 ? depth + 1 : depth
      for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k]!, next])
    }
  }
  for (const root of roots) {
    const parent = linkParentOf(records[root]!)
    walk(
      root,
      0,
      parent === null ? '' : `⚠ gap · parent ${displayLine(JSON.stringify(parent))} is not in the file`,
    )
  }
  for (let i = 0; i < records.length; i++) {
    if (printed[i] === 0 && index.get(records[i]!.uuid) === i)
      walk(i, 0, '⚠ gap · these records loop (cycle)')
  }
  for (const problem of session.problems) text += `${formatProblem(problem, style)}\n`
  for (const entry of session.recovered) text += `${formatRecovered(entry, style)}\n`
  return text
}
