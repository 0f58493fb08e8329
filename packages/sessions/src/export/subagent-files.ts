/**
 * Subagent transcripts kept in files of their own, joined into the session they belong to. Claude Code
 * writes a subagent's turns to `<session>/subagents/agent-<agentId>.jsonl` (or `<session>/agent-<agentId>.jsonl`)
 * beside `<session>.jsonl` (every
 * record `isSidechain`, with its `agentId`), and the parent's Task/Agent result names the agent id (the
 * model's `ToolResultEvent.agentId`). The joined stream yields each subagent's events right after the
 * result that names it — the page and Markdown then show them under that call (turns.ts) — and, at the
 * end, those of files no result named, so none is left out. `agent-acompact-*` files are skipped: Claude
 * Code's own compaction runs, a copy of the conversation rather than a subagent's work.
 */
import { readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { ReadProblem } from '@sessiontape/recorder'
import type { ConversationEvent } from '../model.js'
import { streamConversation } from '../stream-conversation.js'

const AGENT_FILE = /^agent-(?!acompact-)([A-Za-z0-9_-]+)\.jsonl$/

/**
 * The subagent transcripts of a session file: agent id → path, in file-name order (none: empty). Where
 * Claude Code puts them: `<session>/subagents/`, and `<session>/` itself (the catalog's walk finds both).
 */
export async function subagentFiles(file: string): Promise<Map<string, string>> {
  const session = join(dirname(file), basename(file).replace(/\.jsonl$/, ''))
  const found = new Map<string, string>()
  for (const dir of [join(session, 'subagents'), session]) {
    // A session without subagents has no such directory: nothing to join.
    const names = await readdir(dir).catch(() => [] as string[])
    for (const name of names.sort()) {
      const match = AGENT_FILE.exec(name)
      if (match !== null && !found.has(match[1]!)) found.set(match[1]!, join(dir, name))
    }
  }
  return found
}

export interface JoinOptions {
  readonly format?: string
  readonly signal?: AbortSignal
  readonly maxLineBytes?: number
  readonly onProblem?: (problem: ReadProblem) => void
}

/** A subagent file's conversation events, each marked as that agent's (its session facts and titles left out). */
async function* agentEvents(
  agentId: string,
  path: string,
  options: JoinOptions,
): AsyncGenerator<ConversationEvent> {
  const sidechain = { agentId }
  for await (const event of streamConversation(path, { ...options, format: 'auto' })) {
    if (event.kind === 'session' || event.kind === 'title') continue
    yield { ...event, sidechain }
  }
}

/** `events` of `file` with its subagents' events joined in (see the header). */
export async function* withSubagents(
  file: string,
  events: AsyncIterable<ConversationEvent>,
  options: JoinOptions = {},
): AsyncGenerator<ConversationEvent> {
  const files = await subagentFiles(file)
  if (files.size === 0) {
    yield* events
    return
  }
  for await (const event of events) {
    yield event
    if (event.kind !== 'tool-result' || event.agentId === undefined) continue
    const path = files.get(event.agentId)
    if (path === undefined) continue
    files.delete(event.agentId)
    yield* agentEvents(event.agentId, path, options)
  }
  for (const [agentId, path] of files) yield* agentEvents(agentId, path, options)
}
