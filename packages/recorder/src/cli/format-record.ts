import { ENVELOPE_FIELDS, type SessionRecord } from '../record-format.js'
import type { ReadProblem } from '../read/problem.js'

const ENVELOPE = new Set<string>(ENVELOPE_FIELDS)
/** A record body in `show` stops after this many lines / characters, so one huge tool output stays readable. */
const MAX_BODY_LINES = 20
const MAX_BODY_CHARS = 2000
const ONE_LINE_CHARS = 100

/** `2026-01-01 10:15:03Z` from an ISO timestamp (left alone if it is not one). */
export function shortTime(timestamp: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(timestamp)
  return match === null ? timestamp : `${match[1]} ${match[2]}Z`
}

/** The record's caller data, as text: its `text` or `content` string if it has one, else compact JSON. */
export function bodyText(record: SessionRecord): string {
  if (typeof record.text === 'string') return record.text
  if (typeof record.content === 'string') return record.content
  const data: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) if (!ENVELOPE.has(key)) data[key] = value
  return Object.keys(data).length === 0 ? '' : JSON.stringify(data)
}

/** Header line and indented body of one record, as `show` prints it. */
export function formatRecord(record: SessionRecord, line: number | undefined): string {
  const where = line === undefined ? '' : `line ${line} · `
  let text = `── ${where}${shortTime(record.timestamp)} · ${record.type} · ${record.uuid}\n`
  let body = bodyText(record)
  if (body.length === 0) return text
  let note = ''
  if (body.length > MAX_BODY_CHARS) {
    note = ` … (${body.length - MAX_BODY_CHARS} more characters)`
    body = body.slice(0, MAX_BODY_CHARS)
  }
  const lines = body.split('\n')
  if (lines.length > MAX_BODY_LINES) {
    note = ` … (${lines.length - MAX_BODY_LINES} more lines)`
    lines.length = MAX_BODY_LINES
  }
  for (const bodyLine of lines) text += `   ${bodyLine}\n`
  if (note !== '') text += `  ${note}\n`
  return text
}

/** One line per record, for `tail` and the tree view. */
export function formatRecordLine(record: SessionRecord): string {
  const body = bodyText(record).replace(/\s+/g, ' ').trim()
  const preview = body.length > ONE_LINE_CHARS ? `${body.slice(0, ONE_LINE_CHARS)}…` : body
  return `${shortTime(record.timestamp)} ${record.type}${preview === '' ? '' : `: ${preview}`}`
}

export function formatProblem(problem: ReadProblem): string {
  return `⚠ line ${problem.line} · ${problem.kind} · ${problem.detail}`
}
