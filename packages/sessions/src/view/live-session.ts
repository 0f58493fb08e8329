/**
 * One session as the viewer shows it, read the way an export reads it (the branch pass, then the stream of
 * events into turns), so a page and the changes sent to it never disagree. Also whether the last line is
 * still being written: a last line without its newline is a write in progress, shown as "writing…", and
 * the reader's complaint about that line is not counted as a problem.
 */
import { open } from 'node:fs/promises'
import type { FormatOption, ReadProblem } from '@sessiontape/recorder'
import { streamConversation } from '../stream-conversation.js'
import { activeBranchOf } from '../export/branch-pass.js'
import { pageMeta, turnBuilder } from '../export/render.js'
import type { Turn } from '../export/turns.js'

/** The longest line the viewer reads (a longer one is a `too-long` problem): bounds the server's memory per read. */
export const VIEW_MAX_LINE_BYTES = 64 * 1024 * 1024

export interface SessionView {
  readonly turns: Turn[]
  readonly meta: Record<string, unknown>
  /** The file's size before it was read: a page built from this view asks for changes after it. */
  readonly size: number
  /** The last line has no newline yet. */
  readonly pending: boolean
}

/** The file's size, and whether its last byte is not a newline (a write in progress). */
export async function tailState(file: string): Promise<{ size: number; pending: boolean }> {
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    if (size === 0) return { size, pending: false }
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    // A Gemini JSON document is rewritten whole, not appended to: it has no line in progress.
    return { size, pending: last[0] !== 0x0a && !file.endsWith('.json') }
  } finally {
    await handle.close()
  }
}

/** Problems worth counting: not the complaint about a last line still being written. */
export function problemCounter(pending: boolean): {
  readonly onProblem: (p: ReadProblem) => void
  count(): number
} {
  const lines: number[] = []
  return {
    onProblem: (problem) => void lines.push(problem.line),
    count: () => {
      if (!pending || lines.length === 0) return lines.length
      const last = Math.max(...lines)
      return lines.filter((line) => line !== last).length
    },
  }
}

export async function readSessionView(
  file: string,
  options: { readonly format: FormatOption },
): Promise<SessionView> {
  const before = await tailState(file)
  const read = { format: options.format, maxLineBytes: VIEW_MAX_LINE_BYTES }
  const builder = turnBuilder({ onBranch: await activeBranchOf(file, read), activeOnly: false })
  const problems = problemCounter(before.pending)
  const turns: Turn[] = []
  for await (const event of streamConversation(file, { ...read, onProblem: problems.onProblem })) {
    const done = builder.push(event)
    if (done !== undefined) turns.push(done)
  }
  const last = builder.finish()
  if (last !== undefined) turns.push(last)
  return {
    turns,
    meta: pageMeta(builder.facts, builder.total, {
      file,
      problems: problems.count(),
      pending: before.pending,
    }),
    size: before.size,
    pending: before.pending,
  }
}
