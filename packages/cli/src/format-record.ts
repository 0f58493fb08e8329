import path from 'node:path'
import {
  ENVELOPE_FIELDS,
  type SessionRecord,
  type ReadProblem,
  type RecoveredTornLine,
} from '@sessiontape/recorder'
import { stringifyJson } from '@sessiontape/recorder/internal'
import { displayBlock, displayLine } from './display-text.js'
import { plainStyle, type Style } from './style.js'

const ENVELOPE = new Set<string>(ENVELOPE_FIELDS)
/** A record body in `show` stops after this many lines / characters, so one huge tool output stays readable. */
const MAX_BODY_LINES = 20
const MAX_BODY_CHARS = 2000
/** A non-text field is shown as compact JSON of at most this many characters. */
const MAX_FIELD_CHARS = 300
const ONE_LINE_CHARS = 100
/** Fields shown as the record's text, in order of preference. */
const TEXT_FIELDS = ['text', 'content'] as const

/** `2026-01-01 10:15:03Z` from an ISO timestamp (left alone, made safe, if it is not one). */
export function shortTime(timestamp: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(timestamp)
  return match === null ? displayLine(timestamp) : `${match[1]} ${match[2]}Z`
}

/** The caller data of a record, as [key, value] pairs (own keys: a `__proto__` key is data like any other). */
function dataFields(record: SessionRecord): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = []
  for (const key of Object.keys(record)) if (!ENVELOPE.has(key)) fields.push([key, record[key]])
  return fields
}

function textField(record: SessionRecord): string | undefined {
  for (const name of TEXT_FIELDS) {
    if (Object.hasOwn(record, name) && typeof record[name] === 'string') return name
  }
  return undefined
}

/** Parts of a message's text read at most: a message with thousands of blocks stays cheap to preview. */
const MAX_TEXT_PARTS = 64

/**
 * The text of another agent's message, if the record has one: Claude's `message.content` (a string or
 * blocks: text, tool_use, tool_result), Qwen's `message.parts[].text`, Gemini's `content` blocks.
 */
function messageText(record: SessionRecord): string | undefined {
  const message = record.message
  const m = message !== null && typeof message === 'object' ? (message as Record<string, unknown>) : undefined
  const blocks = m !== undefined ? (m.content ?? m.parts) : record.content
  if (typeof blocks === 'string') return blocks
  if (!Array.isArray(blocks)) return undefined
  const texts: string[] = []
  for (const block of blocks.slice(0, MAX_TEXT_PARTS)) {
    if (typeof block === 'string') texts.push(block)
    if (block === null || typeof block !== 'object') continue
    const b = block as Record<string, unknown>
    if (typeof b.text === 'string') texts.push(b.text)
    else if (b.type === 'tool_use' && typeof b.name === 'string') texts.push(`[tool_use ${b.name}]`)
    else if (b.type === 'tool_result')
      texts.push(typeof b.content === 'string' ? `[tool_result] ${b.content}` : '[tool_result]')
    else if (typeof b.thinking === 'string') texts.push(`[thinking] ${b.thinking}`)
  }
  return texts.length === 0 ? undefined : texts.join('\n')
}

/** A field value for display: a string as is, anything else as compact JSON; bounded, never recursive. */
function fieldText(value: unknown, maxChars: number): string {
  if (typeof value === 'string') return value.length > maxChars ? `${value.slice(0, maxChars)}…` : value
  return stringifyJson(value, { maxChars })
}

/**
 * Every data field of a record as readable text, nothing left out: the `text` (or `content`) string first,
 * then each other field as `key: value` — tool calls, tool results, unknown types alike.
 */
export function bodyText(record: SessionRecord): string {
  const main = textField(record)
  const parts: string[] = []
  if (main !== undefined) parts.push(fieldText(record[main], MAX_BODY_CHARS))
  else {
    // Claude Code, Qwen Code and Gemini CLI keep the words inside a message: shown first, as text.
    const said = messageText(record)
    if (said !== undefined)
      parts.push(said.length > MAX_BODY_CHARS ? `${said.slice(0, MAX_BODY_CHARS)}…` : said)
  }
  for (const [key, value] of dataFields(record)) {
    if (key === main) continue
    parts.push(`${key}: ${fieldText(value, MAX_FIELD_CHARS)}`)
  }
  return parts.join('\n')
}

/** Header line and indented body of one record, as `show` prints it. */
export function formatRecord(
  record: SessionRecord,
  line: number | undefined,
  style: Style = plainStyle,
): string {
  const where = line === undefined ? '' : `line ${line} · `
  let text = `${style.dim(`── ${where}${shortTime(record.timestamp)} ·`)} ${style.type(displayLine(record.type))} ${style.dim(`· ${displayLine(record.uuid)}`)}\n`
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
  for (const bodyLine of lines) text += `   ${displayBlock(bodyLine)}\n`
  if (note !== '') text += `  ${style.dim(note)}\n`
  return text
}

/** One line per record, for the tree view (`tail` fits its lines to the terminal: commands/tail-line.ts). */
export function formatRecordLine(record: SessionRecord, style: Style = plainStyle): string {
  const body = bodyText(record)
    .slice(0, ONE_LINE_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim()
  const preview = body.length > ONE_LINE_CHARS ? `${body.slice(0, ONE_LINE_CHARS)}…` : body
  return `${style.dim(shortTime(record.timestamp))} ${style.type(displayLine(record.type))}${preview === '' ? '' : `: ${displayLine(preview)}`}`
}

/** Where a problem is: its line when known, else its byte offset (a reader that started mid-file). */
function where(line: number, offset: number | undefined, lineKnown: boolean): string {
  return lineKnown || offset === undefined ? `line ${line}` : `byte ${offset}`
}

export function formatProblem(problem: ReadProblem, style: Style = plainStyle, lineKnown = true): string {
  // A session kept in segments: the line counts in the file the problem names.
  const file = problem.file === undefined ? '' : `${displayLine(path.basename(problem.file))} `
  return style.warn(
    `⚠ ${file}${where(problem.line, problem.offset, lineKnown)} · ${problem.kind} · ${displayLine(problem.detail)}`,
  )
}

export function formatRecovered(
  entry: RecoveredTornLine,
  style: Style = plainStyle,
  lineKnown = true,
): string {
  return style.dim(
    `↺ ${where(entry.line, entry.offset, lineKnown)} · recovered · ${displayLine(entry.detail)}`,
  )
}
