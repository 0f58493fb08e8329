import { rename, writeFile } from 'node:fs/promises'
import {
  addUsage,
  OpenCodeDbError,
  ZERO_USAGE,
  readOpenCodeDb,
  type Conversation,
  type ConversationEvent,
  type OpenCodeDb,
  type Usage,
} from '@sessiontape/sessions'
import { CliError, ExitCode, styleOf, type CliIo } from './cli-io.js'
import { writeJson } from './command.js'
import { displayBlock, displayLine } from './display-text.js'
import type { OpenCodeTarget } from './opencode-target.js'

/**
 * `show` and `usage` of OpenCode's store (see opencode-target.ts), read through `readOpenCodeDb()`: a
 * snapshot with the committed WAL frames, nothing written beside it. Imported only when a command meets one,
 * so the other commands start without the conversation model's code.
 */

/** Reads the store, a reader's typed error turned into the command's message (exit 2). */
export async function readStore(command: string, target: OpenCodeTarget, io: CliIo): Promise<OpenCodeDb> {
  let db: OpenCodeDb
  try {
    db = await readOpenCodeDb(
      target.file,
      target.sessionId === undefined ? {} : { sessionId: target.sessionId },
    )
  } catch (error) {
    if (error instanceof OpenCodeDbError)
      throw new CliError(
        `sessiontape ${command}: ${displayLine(error.message)}`,
        ExitCode.UNREADABLE,
        error.code,
      )
    throw error
  }
  if (target.sessionId !== undefined && db.sessions.length === 0) {
    throw new CliError(
      `sessiontape ${command}: no session ${displayLine(JSON.stringify(target.sessionId))} in ${displayLine(target.file)}`,
      ExitCode.UNREADABLE,
      'ERR_NO_SESSION',
    )
  }
  if (db.rowsNotRead > 0)
    io.err(
      `sessiontape ${command}: ${db.rowsNotRead} row(s) of ${displayLine(target.file)} hold no JSON; shown as "other".\n`,
    )
  return db
}

/** `show <db>[#<session>]`: each session's conversation, in the order OpenCode wrote it. */
export async function showStore(target: OpenCodeTarget, json: boolean, io: CliIo): Promise<ExitCode> {
  const db = await readStore('show', target, io)
  if (json) {
    writeJson(io, {
      filePath: db.file,
      framesApplied: db.framesApplied,
      framesNotCommitted: db.framesNotCommitted,
      rowsNotRead: db.rowsNotRead,
      sessions: db.sessions.map((s) => ({ sessionId: s.sessionId, title: s.title, events: s.events })),
    })
    return ExitCode.OK
  }
  const style = styleOf(io)
  let text = `${style.bold(displayLine(db.file))}\nopencode · ${db.sessions.length} session(s) · ${db.framesApplied} committed WAL frame(s) read\n`
  for (const session of db.sessions) {
    const info = session.events.find((e) => e.kind === 'session')
    const where =
      info?.kind === 'session' ? [info.cwd, info.agentVersion && `opencode ${info.agentVersion}`] : []
    const parent =
      info?.kind === 'session' && info.parentSessionId !== undefined
        ? `subagent of ${info.parentSessionId}`
        : undefined
    const head = [`session ${session.sessionId ?? ''}`, session.title, ...where, parent].filter(
      (v) => v !== undefined && v !== '',
    )
    text += `\n${style.bold(displayLine(head.join(' · ')))}\n`
    for (const event of session.events) text += eventText(event, style.type)
  }
  io.out(text)
  return ExitCode.OK
}

function eventText(event: ConversationEvent, label: (s: string) => string): string {
  switch (event.kind) {
    case 'user':
      return `${label('user')}: ${displayBlock(event.text)}\n`
    case 'assistant':
      return `${label('assistant')}: ${displayBlock(event.text)}\n`
    case 'thinking':
      return `${label('thinking')}: ${displayBlock(event.text)}\n`
    case 'tool-call':
      return `${label('tool-call')} ${displayLine(event.name)} ${displayLine(JSON.stringify(event.input) ?? '')}\n`
    case 'tool-result':
      return `${label(event.isError ? 'tool-error' : 'tool-result')}: ${displayBlock(event.output)}\n`
    case 'usage':
      return `${label('usage')}: ${displayLine(event.model ?? '')} input ${event.usage.inputTokens} (cache read ${event.usage.cacheReadInputTokens}, write ${event.usage.cacheCreationInputTokens}) · output ${event.usage.outputTokens} (reasoning ${event.usage.reasoningOutputTokens})\n`
    case 'marker':
      return `${label(event.marker)}: ${displayLine(event.text)}\n`
    case 'compaction':
      return `${label('compaction')}\n`
    case 'other':
      return `${label('other')}: ${displayLine(event.type)}\n`
    default:
      return ''
  }
}

/** Usage of one session: its requests' figures, and OpenCode's own running total from its session row. */
export interface StoreSessionUsage extends Usage {
  readonly file: string
  readonly sessionId: string
  readonly agent: 'opencode'
  readonly requests: number
  readonly models: readonly string[]
  readonly parentSessionId?: string
  /** The `session` row's own totals (tokens_* and cost, in USD as OpenCode priced it). */
  readonly agentTotal: Usage & { readonly cost: number }
  /** Whether the requests add up to the agent's own total. */
  readonly agreesWithAgentTotal: boolean
}

/** One session's usage: every usage event counted once (one per model request), beside the row's totals. */
export function sessionUsage(session: Conversation): StoreSessionUsage {
  let sum = ZERO_USAGE
  let requests = 0
  const models = new Set<string>()
  let row: Readonly<Record<string, unknown>> = {}
  let parentSessionId: string | undefined
  for (const event of session.events) {
    if (event.kind === 'usage') {
      sum = addUsage(sum, event.usage)
      requests++
      if (event.model !== undefined) models.add(event.model)
    } else if (event.kind === 'session') {
      row = event.raw as Readonly<Record<string, unknown>>
      parentSessionId = event.parentSessionId
    }
  }
  const n = (key: string): number => (typeof row[key] === 'number' ? row[key] : 0)
  const input = n('tokens_input') + n('tokens_cache_read') + n('tokens_cache_write')
  const output = n('tokens_output') + n('tokens_reasoning')
  const agentTotal = {
    inputTokens: input,
    cacheReadInputTokens: n('tokens_cache_read'),
    cacheCreationInputTokens: n('tokens_cache_write'),
    outputTokens: output,
    reasoningOutputTokens: n('tokens_reasoning'),
    totalTokens: input + output,
    cost: n('cost'),
  }
  return {
    file: session.file,
    sessionId: session.sessionId ?? '',
    agent: 'opencode',
    ...sum,
    requests,
    models: [...models],
    ...(parentSessionId === undefined ? {} : { parentSessionId }),
    agentTotal,
    agreesWithAgentTotal:
      agentTotal.inputTokens === sum.inputTokens && agentTotal.outputTokens === sum.outputTokens,
  }
}

/** `usage <db>[#<session>]`: per session, with totals; a session whose requests and row differ is named. */
export async function storeUsage(target: OpenCodeTarget, json: boolean, io: CliIo): Promise<ExitCode> {
  const db = await readStore('usage', target, io)
  const sessions = db.sessions.map(sessionUsage)
  let totals = ZERO_USAGE
  let requests = 0
  for (const s of sessions) {
    totals = addUsage(totals, s)
    requests += s.requests
  }
  for (const s of sessions) {
    if (!s.agreesWithAgentTotal)
      io.err(
        `sessiontape usage: ${displayLine(s.sessionId)}: its requests add up to ${s.inputTokens} in / ${s.outputTokens} out, ` +
          `OpenCode's session row says ${s.agentTotal.inputTokens} / ${s.agentTotal.outputTokens}.\n`,
      )
  }
  if (json) {
    writeJson(io, {
      sessions,
      totals: { ...totals, requests },
      filesRead: 1,
      framesApplied: db.framesApplied,
    })
    return ExitCode.OK
  }
  let text = `${'session'.padEnd(34)} ${'requests'.padStart(8)} ${'input'.padStart(10)} ${'output'.padStart(10)} ${'cost (OpenCode)'.padStart(16)}\n`
  for (const s of sessions)
    text += `${displayLine(s.sessionId).padEnd(34)} ${String(s.requests).padStart(8)} ${String(s.inputTokens).padStart(10)} ${String(s.outputTokens).padStart(10)} ${`$${s.agentTotal.cost.toFixed(4)}`.padStart(16)}\n`
  text += `${'total'.padEnd(34)} ${String(requests).padStart(8)} ${String(totals.inputTokens).padStart(10)} ${String(totals.outputTokens).padStart(10)}\n`
  text += `${displayLine(db.file)}: ${sessions.length} session(s), ${requests} model request(s).\n`
  io.out(text)
  return ExitCode.OK
}

/** `export <db>#<session>`: one session rendered by the same renderer as every agent's (Markdown or HTML). */
export async function exportStore(
  target: OpenCodeTarget,
  options: {
    readonly format: 'html' | 'md'
    readonly redact: boolean
    readonly keepImages: boolean
    readonly out?: string
  },
  io: CliIo,
): Promise<ExitCode> {
  const db = await readStore('export', target, io)
  if (db.sessions.length !== 1) {
    const ids = db.sessions.map((s) => `${target.file}#${s.sessionId ?? ''}`)
    throw new CliError(
      `sessiontape export: ${displayLine(target.file)} holds ${db.sessions.length} sessions; name one:\n${ids.map((id) => `  ${displayLine(id)}`).join('\n')}`,
      ExitCode.UNREADABLE,
      'ERR_NO_SESSION',
    )
  }
  const session = db.sessions[0]!
  const { renderEvents, Redactor } = await import('@sessiontape/sessions')
  let text = ''
  await renderEvents(
    session.events,
    {
      format: options.format,
      activeOnly: true,
      file: `${target.file}#${session.sessionId ?? ''}`,
      keepImages: options.keepImages,
      ...(options.redact ? { redactor: new Redactor() } : {}),
    },
    (chunk) => {
      text += chunk
    },
  )
  if (options.out === undefined) io.out(text)
  else {
    // Written beside its final name and renamed in: a reader never sees half an export.
    const temp = `${options.out}.${process.pid}.tmp`
    await writeFile(temp, text, { flag: 'wx' })
    await rename(temp, options.out)
  }
  return ExitCode.OK
}
