import path from 'node:path'
import type { TranscriptFormat } from '@sessiontape/recorder'
import { agentOf } from '../formats/index.js'
import type { SessionUsage } from './summarize-usage.js'
import type { Tally } from './tally.js'

/** Claude Code's subagent files: `<project>/<session id>/subagents/<agent>.jsonl`, beside `<session id>.jsonl`. */
const CLAUDE_SUBAGENT = /^(.*)[/\\]([^/\\]+)[/\\]subagents[/\\][^/\\]+\.jsonl$/

/** One file's figures while it is read. */
export interface FileTally {
  readonly file: string
  format: TranscriptFormat
  sessionId: string | undefined
  problems: number
  readonly tally: Tally
  first?: { at: number; timestamp: string }
  last?: { at: number; timestamp: string }
  subagentFiles?: string[]
}

/**
 * Claude Code's subagent files counted in their parent session's row, where the parent file was read too
 * (Claude links them by path: `<session id>/subagents/` beside `<session id>.jsonl`; ccusage rolls them in
 * by their `sessionId`, which is the parent's). Other agents' files stay rows of their own.
 */
export function rollUpSubagents(files: readonly FileTally[]): FileTally[] {
  const byFile = new Map(files.map((file) => [file.file, file]))
  const kept: FileTally[] = []
  for (const file of files) {
    const match = file.format === 'claude-code' ? CLAUDE_SUBAGENT.exec(file.file) : null
    const parent = match === null ? undefined : byFile.get(path.join(match[1]!, `${match[2]!}.jsonl`))
    if (parent === undefined || parent === file) {
      kept.push(file)
      continue
    }
    parent.tally.merge(file.tally)
    parent.problems += file.problems
    if (file.first !== undefined && (parent.first === undefined || file.first.at < parent.first.at))
      parent.first = file.first
    if (file.last !== undefined && (parent.last === undefined || file.last.at > parent.last.at))
      parent.last = file.last
    ;(parent.subagentFiles ??= []).push(file.file)
  }
  return kept
}

export function sessionRow(file: FileTally): SessionUsage {
  return {
    file: file.file,
    format: file.format,
    agent: agentOf(file.format),
    ...(file.sessionId === undefined ? {} : { sessionId: file.sessionId }),
    ...file.tally.totals(),
    ...(file.first === undefined ? {} : { firstTimestamp: file.first.timestamp }),
    ...(file.last === undefined ? {} : { lastTimestamp: file.last.timestamp }),
    problems: file.problems,
    ...(file.subagentFiles === undefined ? {} : { subagentFiles: file.subagentFiles }),
  }
}
