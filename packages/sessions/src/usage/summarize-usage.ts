import type { FormatOption, ProblemKind, TranscriptFormat } from '@sessiontape/recorder'
import { sessionFiles } from '../files/session-files.js'
import { agentOf } from '../formats/index.js'
import type { Agent, Usage, UsageEvent } from '../model.js'
import { addUsage } from './usage.js'
import { checkOptionsBag, checkReadOptions, invalid } from '../options.js'
import { streamConversation } from '../stream-conversation.js'
import { AgentTotalCheck } from './agent-total-check.js'
import { checkDay, dayFormatter } from './days.js'
import { checkPriceTable, Prices, type PriceTable } from './prices.js'
import { rollUpSubagents, sessionRow, type FileTally } from './session-rows.js'
import { Tally, type UsageTotals } from './tally.js'

export type { UsageTotals } from './tally.js'

/** Options of `summarizeUsage()`. */
export interface SummarizeUsageOptions {
  /** Count only usage on or after this day (`YYYY-MM-DD` or `YYYYMMDD`, in `timeZone`). @default undefined */
  readonly since?: string
  /** Count only usage on or before this day (inclusive, in `timeZone`). @default undefined */
  readonly until?: string
  /**
   * The IANA time zone whose calendar days `since`, `until` and the per-day totals use (ccusage and
   * `@ccusage/codex` use the system's too).
   * @default the system's time zone
   */
  readonly timeZone?: string
  /** How to read the files; `'auto'` recognises each from its content. @default 'auto' */
  readonly format?: FormatOption
  /** Stops between chunks; the promise then rejects with the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /** Lines longer than this are skipped unread (`too-long`), so memory stays bounded. @default ~512 MiB */
  readonly maxLineBytes?: number
  /**
   * Prices that add to or replace the built-in table's (`BUILT_IN_PRICES`, by model), e.g. a negotiated rate
   * or a model the table does not know yet: `{ source, date, models: { <model>: { input, output, cacheRead?,
   * cacheWrite? } } }`, US dollars per token.
   * @default undefined
   */
  readonly prices?: PriceTable
}

/** One session's usage: a session file, with the subagent files the agent links to it rolled in. */
export interface SessionUsage extends UsageTotals {
  readonly file: string
  readonly format: TranscriptFormat
  readonly agent: Agent
  readonly sessionId?: string
  /**
   * Timestamps of the earliest and latest usage counted (ISO 8601, as the file wrote them; one that does not
   * parse is left out).
   */
  readonly firstTimestamp?: string
  readonly lastTimestamp?: string
  /** Line-level problems the reader found in the file (`sessiontape verify` lists them). */
  readonly problems: number
  /** Subagent files counted in this session (Claude Code's `<session>/subagents/*.jsonl`). */
  readonly subagentFiles?: readonly string[]
}

export interface DayUsage extends UsageTotals {
  /** `YYYY-MM-DD` in the summary's time zone, or `undated` for usage without a readable timestamp. */
  readonly date: string
}

export interface ModelUsage extends UsageTotals {
  /** The model's name as the agent recorded it (`unknown` when it did not). */
  readonly model: string
}

export interface AgentUsage extends UsageTotals {
  readonly agent: Agent
  /** Sessions of this agent with usage. */
  readonly sessions: number
}

/** A usage figure the agent wrote that cannot be counted as it is, where it is. */
export interface UsageProblem {
  readonly file: string
  readonly line: number
  /**
   * `not-a-count`: a usage field the agent wrote is not a token count. `agent-total-differs`: the agent's own
   * running total (Codex's `total_token_usage`) grew by other figures than the requests counted.
   */
  readonly kind: 'not-a-count' | 'agent-total-differs'
  /** The field's path in the line, e.g. `message.usage.cache_read_input_tokens`. */
  readonly field: string
  /** The value as JSON, cut to 40 characters (`agent-total-differs`: both figures). */
  readonly value: string
}

/** What `summarizeUsage()` resolves to. */
export interface UsageSummary {
  /** Sessions with usage in the range, in the order their files were found. */
  readonly sessions: readonly SessionUsage[]
  /** Per day, oldest first; usage without a readable timestamp last, as day `undated`. */
  readonly days: readonly DayUsage[]
  /** Per model, most tokens first. */
  readonly models: readonly ModelUsage[]
  /** Per agent, most tokens first. */
  readonly agents: readonly AgentUsage[]
  readonly totals: UsageTotals
  /** The price tables used (the built-in one, then `prices`): where each comes from and its date. */
  readonly priceTables: readonly { readonly source: string; readonly date: string }[]
  /** Usage fields that are not a count (at most `MAX_LISTED_PROBLEMS`; `problemsNotListed` counts the rest). */
  readonly problems: readonly UsageProblem[]
  readonly problemsNotListed: number
  /** Files and paths that could not be read at all, with the fs error's code. */
  readonly unreadable: readonly { readonly file: string; readonly code: string; readonly message: string }[]
  /** How many session files were read. */
  readonly filesRead: number
  /**
   * Files read with lines that could not be read (not JSON, over `maxLineBytes`, a torn last line): whatever
   * usage those lines held is not in the totals, so a caller can say so. A file with usage is also in
   * `sessions`, its `problems` counting these lines and the other damage the reader found.
   */
  readonly linesNotRead: readonly { readonly file: string; readonly lines: number }[]
}

const OPTIONS = ['since', 'until', 'timeZone', 'format', 'signal', 'maxLineBytes', 'prices'] as const
/** The problems that leave a line unread: its usage, if it held any, is lost to the totals. */
const UNREAD_LINE: ReadonlySet<ProblemKind> = new Set(['invalid-json', 'too-long', 'torn-tail'])
const UNKNOWN_MODEL = 'unknown'
const UNDATED = 'undated'
/** Problems listed one by one; a file damaged on every line must not grow the summary without bound. */
const MAX_LISTED_PROBLEMS = 1000

/** A request being read: its figures grow while later lines of it come (Claude's content blocks). */
interface Held {
  usage: Usage
  model: string | undefined
  timestamp: string | undefined
  /** Model requests it stands for (Copilot records only a sum per model). */
  requests: number
}

/**
 * Token usage and cost of the sessions in `paths` (files, or directories walked recursively:
 * `~/.claude/projects`, `~/.codex/sessions`, `~/.gemini/tmp`…): per session, day, model, agent and in total,
 * by one rule for every agent (docs/usage.md): the model server's figures for each request as the agent
 * recorded them, each request once. A request recorded in several files (Claude Code copies a request's
 * records into the next file on resume) counts in the first file found. Reads each file as a stream: memory
 * is bounded by the number of sessions, days, models and one file's requests, not by the files' size.
 */
export async function summarizeUsage(
  paths: readonly string[] | string,
  options: SummarizeUsageOptions = {},
): Promise<UsageSummary> {
  const list = typeof paths === 'string' ? [paths] : paths
  if (!Array.isArray(list) || list.length === 0 || list.some((p) => typeof p !== 'string' || p === '')) {
    throw invalid('paths', paths, 'a path or a non-empty array of paths')
  }
  const bag = checkOptionsBag(options, OPTIONS, 'summarizeUsage()')
  const read = checkReadOptions(bag)
  const since = checkDay('since', bag.since)
  const until = checkDay('until', bag.until)
  const dayOf = dayFormatter(bag.timeZone)
  const prices = new Prices(bag.prices === undefined ? undefined : checkPriceTable(bag.prices))

  const counted = new Set<string>()
  const files: FileTally[] = []
  const days = new Map<string, Tally>()
  const models = new Map<string, Tally>()
  const agents = new Map<Agent, { tally: Tally; sessions: number }>()
  const total = new Tally()
  const problems: UsageProblem[] = []
  let problemsNotListed = 0
  const unreadable: { file: string; code: string; message: string }[] = []
  const linesNotRead: { file: string; lines: number }[] = []
  let filesRead = 0

  const tallyOf = <K>(map: Map<K, Tally>, key: K): Tally => {
    let tally = map.get(key)
    if (tally === undefined) map.set(key, (tally = new Tally()))
    return tally
  }

  /** Counts one whole request of `into`'s file, if it is in the range. */
  const countRequest = (into: FileTally, held: Held): void => {
    const day = held.timestamp === undefined ? undefined : dayOf(held.timestamp)
    if (since !== undefined || until !== undefined) {
      if (day === undefined) return
      if ((since !== undefined && day < since) || (until !== undefined && day > until)) return
    }
    const cost = prices.costOf(held.model, held.usage)
    for (const tally of [
      into.tally,
      total,
      tallyOf(days, day ?? UNDATED),
      tallyOf(models, held.model ?? UNKNOWN_MODEL),
    ])
      tally.add(held.usage, held.model, cost, held.requests)
    // Earliest and latest by time, not by stream order (a Gemini request a rewind took back comes
    // after the messages left).
    const at = held.timestamp === undefined ? NaN : Date.parse(held.timestamp)
    if (Number.isFinite(at)) {
      if (into.first === undefined || at < into.first.at) into.first = { at, timestamp: held.timestamp! }
      if (into.last === undefined || at > into.last.at) into.last = { at, timestamp: held.timestamp! }
    }
  }

  for await (const found of sessionFiles(list)) {
    read.signal?.throwIfAborted()
    if ('error' in found) {
      unreadable.push({ file: found.file, code: found.error.code ?? 'EIO', message: found.error.message })
      continue
    }
    const file: FileTally = {
      file: found.file,
      format: 'sessiontape',
      sessionId: undefined,
      problems: 0,
      tally: new Tally(),
    }
    let unreadLines = 0
    // Requests with a key, held until the file ends: a later line of one may still grow its figures.
    const held = new Map<string, Held>()
    const agentTotal = new AgentTotalCheck()
    try {
      for await (const event of streamConversation(found.file, {
        format: read.format,
        ...(read.signal === undefined ? {} : { signal: read.signal }),
        ...(read.maxLineBytes === undefined ? {} : { maxLineBytes: read.maxLineBytes }),
        onProblem: (problem) => {
          file.problems++
          if (UNREAD_LINE.has(problem.kind)) unreadLines++
        },
        onFormat: (f) => (file.format = f),
      })) {
        // The latest session id named wins: a resumed Claude Code file opens with a copy of the previous
        // file's last records, which carry the previous id.
        if (event.kind === 'session' && event.sessionId !== undefined) file.sessionId = event.sessionId
        else file.sessionId ??= sessionIdOf(event.raw)
        if (event.kind !== 'usage') continue
        for (const { field, value } of event.invalidFields ?? []) {
          if (problems.length < MAX_LISTED_PROBLEMS)
            problems.push({ file: found.file, line: event.line, kind: 'not-a-count', field, value })
          else problemsNotListed++
        }
        seeUsage(event, held, counted, (request) => countRequest(file, request))
        agentTotal.see(event)
      }
    } catch (error) {
      if (read.signal?.aborted === true) throw error
      const fsError = error as NodeJS.ErrnoException
      if (typeof fsError?.code !== 'string') throw error
      unreadable.push({ file: found.file, code: fsError.code, message: fsError.message })
      continue
    }
    for (const request of held.values()) countRequest(file, request)
    const differs = since === undefined && until === undefined ? agentTotal.difference() : undefined
    if (differs !== undefined) {
      const problem = {
        file: found.file,
        kind: 'agent-total-differs',
        field: 'total_token_usage',
        ...differs,
      } as const
      if (problems.length < MAX_LISTED_PROBLEMS) problems.push(problem)
      else problemsNotListed++
    }
    filesRead++
    if (unreadLines > 0) linesNotRead.push({ file: found.file, lines: unreadLines })
    if (file.tally.requests > 0) files.push(file)
  }

  const sessions = rollUpSubagents(files).map((file) => {
    const row = agents.get(agentOf(file.format)) ?? { tally: new Tally(), sessions: 0 }
    row.tally.merge(file.tally)
    row.sessions++
    agents.set(agentOf(file.format), row)
    return sessionRow(file)
  })
  const byTokens = (a: UsageTotals, b: UsageTotals) => b.totalTokens - a.totalTokens
  return {
    sessions,
    days: [...days.entries()]
      .sort(([a], [b]) => (a === UNDATED ? 1 : b === UNDATED ? -1 : a < b ? -1 : a > b ? 1 : 0))
      .map(([date, tally]) => ({ date, ...tally.totals() })),
    models: [...models.entries()]
      .map(([model, tally]) => ({ model, ...tally.totals() }))
      .sort((a, b) => byTokens(a, b) || (a.model < b.model ? -1 : 1)),
    agents: [...agents.entries()]
      .map(([agent, { tally, sessions: n }]) => ({ agent, ...tally.totals(), sessions: n }))
      .sort((a, b) => byTokens(a, b) || (a.agent < b.agent ? -1 : 1)),
    totals: total.totals(),
    priceTables: prices.tables,
    problems,
    problemsNotListed,
    unreadable,
    filesRead,
    linesNotRead,
  }
}

/**
 * Takes one usage event: a request without a key is counted at once; a keyed one is held until its file
 * ends (a `revises` event of it adds its growth and moves its time to the later line); a key already
 * counted in an earlier file is skipped.
 */
function seeUsage(
  event: UsageEvent,
  held: Map<string, Held>,
  counted: Set<string>,
  count: (request: Held) => void,
): void {
  const request: Held = {
    usage: event.usage,
    model: event.model,
    timestamp: event.timestamp,
    requests: event.requests ?? 1,
  }
  if (event.revises !== undefined) {
    const open = held.get(event.revises)
    if (open === undefined) return
    open.usage = addUsage(open.usage, event.usage)
    open.model = event.model ?? open.model
    open.timestamp = event.timestamp ?? open.timestamp
    return
  }
  if (event.requestKey === undefined) return count(request)
  if (counted.has(event.requestKey)) return
  counted.add(event.requestKey)
  held.set(event.requestKey, request)
}

function sessionIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const id = (raw as Record<string, unknown>).sessionId
  return typeof id === 'string' && id !== '' ? id : undefined
}
