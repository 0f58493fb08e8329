import type { FormatOption, ProblemKind, TranscriptFormat } from '@sessiontape/recorder'
import { sessionFiles } from '../files/session-files.js'
import { agentOf } from '../formats/index.js'
import type { Agent, Usage } from '../model.js'
import { checkOptionsBag, checkReadOptions, invalid } from '../options.js'
import { streamConversation } from '../stream-conversation.js'
import { addUsage, ZERO_USAGE } from './usage.js'

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
}

/** Usage with the models it came from and how many model requests it adds up. */
export interface UsageTotals extends Usage {
  /** The models named, sorted (`<synthetic>`, Claude's stand-in for a local error, left out). */
  readonly models: readonly string[]
  /** Model requests counted (usage events). */
  readonly requests: number
}

/** One session file's usage. */
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
}

export interface DayUsage extends UsageTotals {
  /** `YYYY-MM-DD` in the summary's time zone. */
  readonly date: string
}

export interface ModelUsage extends Usage {
  /** The model's name as the agent recorded it (`unknown` when it did not). */
  readonly model: string
  readonly requests: number
}

/** What `summarizeUsage()` resolves to. */
export interface UsageSummary {
  /** Sessions with usage in the range, in the order their files were found. */
  readonly sessions: readonly SessionUsage[]
  /** Per day, oldest first (usage without a timestamp has no day: it is in no row, but in the totals). */
  readonly days: readonly DayUsage[]
  /** Per model, most tokens first. */
  readonly models: readonly ModelUsage[]
  readonly totals: UsageTotals
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

const OPTIONS = ['since', 'until', 'timeZone', 'format', 'signal', 'maxLineBytes'] as const
/** The problems that leave a line unread: its usage, if it held any, is lost to the totals. */
const UNREAD_LINE: ReadonlySet<ProblemKind> = new Set(['invalid-json', 'too-long', 'torn-tail'])
const SYNTHETIC_MODEL = '<synthetic>'
const UNKNOWN_MODEL = 'unknown'

/**
 * Token usage of the sessions in `paths` (files, or directories walked recursively: `~/.claude/projects`,
 * `~/.codex/sessions`, `~/.gemini/tmp`…): per session, per day, per model and in total, each format counted by
 * the rules its own tools apply (docs/usage.md). A model request recorded in several files (Claude Code
 * copies a request's records into the next file on resume) counts once, in the first file found. Reads each
 * file as a stream: memory is bounded by the number of sessions, days and models, not by the files' size.
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

  const counted = new Set<string>()
  const sessions: SessionUsage[] = []
  const days = new Map<string, Tally>()
  const models = new Map<string, { usage: Usage; requests: number }>()
  const total = new Tally()
  const unreadable: { file: string; code: string; message: string }[] = []
  const linesNotRead: { file: string; lines: number }[] = []
  let filesRead = 0

  for await (const found of sessionFiles(list)) {
    read.signal?.throwIfAborted()
    if ('error' in found) {
      unreadable.push({ file: found.file, code: found.error.code ?? 'EIO', message: found.error.message })
      continue
    }
    let format: TranscriptFormat = 'sessiontape'
    let problems = 0
    let unreadLines = 0
    let sessionId: string | undefined
    let first: string | undefined
    let last: string | undefined
    let firstAt = Infinity
    let lastAt = -Infinity
    const session = new Tally()
    try {
      for await (const event of streamConversation(found.file, {
        format: read.format,
        ...(read.signal === undefined ? {} : { signal: read.signal }),
        ...(read.maxLineBytes === undefined ? {} : { maxLineBytes: read.maxLineBytes }),
        onProblem: (problem) => {
          problems++
          if (UNREAD_LINE.has(problem.kind)) unreadLines++
        },
        onFormat: (f) => (format = f),
      })) {
        // The latest session id named wins: a resumed Claude Code file opens with a copy of the previous
        // file's last records, which carry the previous id.
        if (event.kind === 'session' && event.sessionId !== undefined) sessionId = event.sessionId
        else sessionId ??= sessionIdOf(event.raw)
        if (event.kind !== 'usage') continue
        if (event.requestKey !== undefined) {
          if (counted.has(event.requestKey)) continue
          counted.add(event.requestKey)
        }
        const day = event.timestamp === undefined ? undefined : dayOf(event.timestamp)
        if ((since !== undefined || until !== undefined) && day === undefined) continue
        if (
          day !== undefined &&
          ((since !== undefined && day < since) || (until !== undefined && day > until))
        )
          continue
        session.add(event.usage, event.model)
        total.add(event.usage, event.model)
        if (day !== undefined) {
          let tally = days.get(day)
          if (tally === undefined) days.set(day, (tally = new Tally()))
          tally.add(event.usage, event.model)
        }
        const model = event.model ?? UNKNOWN_MODEL
        const byModel = models.get(model) ?? { usage: ZERO_USAGE, requests: 0 }
        models.set(model, { usage: addUsage(byModel.usage, event.usage), requests: byModel.requests + 1 })
        // Earliest and latest by time, not by stream order (a Gemini request a rewind took back comes
        // after the messages left).
        const at = event.timestamp === undefined ? NaN : Date.parse(event.timestamp)
        if (Number.isFinite(at)) {
          if (at < firstAt) [first, firstAt] = [event.timestamp, at]
          if (at > lastAt) [last, lastAt] = [event.timestamp, at]
        }
      }
    } catch (error) {
      if (read.signal?.aborted === true) throw error
      const fsError = error as NodeJS.ErrnoException
      if (typeof fsError?.code !== 'string') throw error
      unreadable.push({ file: found.file, code: fsError.code, message: fsError.message })
      continue
    }
    filesRead++
    if (unreadLines > 0) linesNotRead.push({ file: found.file, lines: unreadLines })
    if (session.requests === 0) continue
    sessions.push({
      file: found.file,
      format,
      agent: agentOf(format),
      ...(sessionId === undefined ? {} : { sessionId }),
      ...session.totals(),
      ...(first === undefined ? {} : { firstTimestamp: first }),
      ...(last === undefined ? {} : { lastTimestamp: last }),
      problems,
    })
  }

  return {
    sessions,
    days: [...days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, tally]) => ({ date, ...tally.totals() })),
    models: [...models.entries()]
      .map(([model, { usage, requests }]) => ({ model, ...usage, requests }))
      .sort((a, b) => b.totalTokens - a.totalTokens || (a.model < b.model ? -1 : 1)),
    totals: total.totals(),
    unreadable,
    filesRead,
    linesNotRead,
  }
}

/** Adds usage up, remembering the models. */
class Tally {
  #usage: Usage = ZERO_USAGE
  readonly #models = new Set<string>()
  requests = 0

  add(usage: Usage, model: string | undefined): void {
    this.#usage = addUsage(this.#usage, usage)
    this.requests++
    if (model !== undefined && model !== SYNTHETIC_MODEL) this.#models.add(model)
  }

  totals(): UsageTotals {
    return { ...this.#usage, models: [...this.#models].sort(), requests: this.requests }
  }
}

function sessionIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const id = (raw as Record<string, unknown>).sessionId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** A `YYYY-MM-DD` (or `YYYYMMDD`) day, normalized to `YYYY-MM-DD`. */
function checkDay(name: string, given: unknown): string | undefined {
  if (given === undefined) return undefined
  const match = typeof given === 'string' ? /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(given) : null
  const day = match === null ? undefined : `${match[1]}-${match[2]}-${match[3]}`
  if (
    day === undefined ||
    Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ||
    new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day
  ) {
    throw invalid(name, given, 'a day as YYYY-MM-DD')
  }
  return day
}

/** The calendar day of a timestamp in a time zone (the system's by default), or undefined for a bad one. */
function dayFormatter(timeZone: unknown): (timestamp: string) => string | undefined {
  if (timeZone !== undefined && typeof timeZone !== 'string')
    throw invalid('timeZone', timeZone, 'an IANA time zone name')
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(timeZone === undefined ? {} : { timeZone }),
    })
  } catch {
    throw invalid('timeZone', timeZone, 'an IANA time zone name')
  }
  return (timestamp) => {
    const time = Date.parse(timestamp)
    return Number.isNaN(time) ? undefined : format.format(time)
  }
}
