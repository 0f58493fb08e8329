import type { SessionRecord } from './record-format.js'
import { envelopeDefects, hasEnvelope } from './envelope.js'
import type { ReadProblem } from './problem.js'

/** Where {@link parseLine} puts what it finds; one object per read, so the hot path allocates nothing. */
export interface LineSink {
  record(record: SessionRecord, line: number): void
  problem(problem: ReadProblem): void
  /**
   * A line another tool writes that is not a record (Claude Code's `summary`, `file-history-snapshot`,
   * Gemini's `$set`…): kept as metadata, never a problem. This format's parser never calls it.
   */
  metadata?(value: Record<string, unknown>, line: number): void
}

/** Turns one parsed JSON value into records, problems or metadata; returns the number of records. */
export type ValueClassifier = (value: unknown, line: number, sink: LineSink) => number

/**
 * Where a new record can start inside a damaged line. Our writer always puts `uuid` first, so after a torn
 * fragment this is the only restart point worth trying: restarting at every `{` would turn the nested
 * objects of a torn record into bogus "records".
 */
const RECORD_START = /\{\s*"uuid"\s*:/g

/** What a JSON text can start with: anything else is not JSON, known without a (throwing) parse. */
const JSON_START = /^[{["\-0-9tfn]/

/** How much of a bad line a problem's detail quotes. */
const EXCERPT_CHARS = 60

/**
 * Parses one complete line (without its `\n`) tolerantly: every record it holds goes to `sink.record`,
 * everything else becomes a typed problem. Returns the number of records found.
 */
export function parseLine(text: string, line: number, sink: LineSink): number {
  return parseLineWith(classifyOwn, text, line, sink)
}

/**
 * {@link parseLine} with another format's idea of what a parsed value is (the readers of other tools'
 * transcripts): damaged lines are taken apart the same way whatever the format.
 */
export function parseLineWith(classify: ValueClassifier, text: string, line: number, sink: LineSink): number {
  if (text.length === 0) return 0
  // A record line starts with `{`: anything else skips the doomed parse (a throw is the costly part).
  let value: unknown
  if (text.charCodeAt(0) === 0x7b) {
    try {
      value = JSON.parse(text)
    } catch {
      return withoutStackTraces(() => parseDamaged(classify, text, line, sink))
    }
    return classify(value, line, sink)
  }
  return withoutStackTraces(() => parseDamaged(classify, text, line, sink))
}

/**
 * Runs `parse` with stack traces off: a damaged line costs a few failed JSON.parse calls, and capturing
 * a stack for each SyntaxError (then dropped unread) dominated the time and garbage of reading a file
 * of random bytes. Restored before returning; nothing else runs in between (it is synchronous).
 */
function withoutStackTraces<T>(parse: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return parse()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** The problem for a final line that has no newline: it is never taken as a record (see README). */
export function tornTailProblem(text: string, line: number, offset?: number): ReadProblem {
  const bytes = Buffer.byteLength(text)
  const nul = /^\0+$/.test(text)
  return {
    line,
    ...(offset === undefined ? {} : { offset }),
    kind: 'torn-tail',
    detail: nul
      ? `the file ends in ${bytes} NUL byte(s) without a newline: a write was cut off (power loss); not a record`
      : `the last line has no newline (${bytes} byte(s): ${excerpt(text)}): a write was cut off; not a record`,
  }
}

/**
 * The problem for a line over the reader's limit (by default the longest string JavaScript can decode,
 * `MAX_LINE_BYTES`; the CLI uses a lower one): it was skipped without being read into memory.
 * Unterminated, it is the torn tail.
 */
export function overlongLineProblem(
  line: number,
  bytes: number,
  terminated: boolean,
  offset?: number,
): ReadProblem {
  const at = offset === undefined ? {} : { offset }
  return terminated
    ? {
        line,
        ...at,
        kind: 'too-long',
        detail: `a line of ${bytes} bytes, longer than this reader's limit; skipped unread`,
      }
    : {
        line,
        ...at,
        kind: 'torn-tail',
        detail: `the last line has no newline (${bytes} byte(s), longer than this reader's limit): a write was cut off; not a record`,
      }
}

/** This format's classifier: an object with the complete envelope is a record. */
function classifyOwn(value: unknown, line: number, sink: LineSink): number {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>
    if (hasEnvelope(object)) {
      sink.record(object, line)
      return 1
    }
    sink.problem({
      line,
      kind: 'missing-envelope',
      detail: `a JSON object without a complete record envelope (missing or invalid: ${envelopeDefects(object).join(', ')})`,
    })
    return 0
  }
  return notAnObject(value, line, sink)
}

/** The problem for a line that is JSON but not an object (shared by every format). */
export function notAnObject(value: unknown, line: number, sink: LineSink): number {
  sink.problem({
    line,
    kind: 'not-an-object',
    detail: `a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, not a record object`,
  })
  return 0
}

function parseDamaged(classify: ValueClassifier, text: string, line: number, sink: LineSink): number {
  if (!text.includes('\0')) return parseSegment(classify, text, line, sink)
  let nulBytes = 0
  let runs = 0
  for (const run of text.matchAll(/\0+/g)) {
    runs++
    nulBytes += run[0].length
  }
  sink.problem({ line, kind: 'nul-run', detail: `${nulBytes} NUL byte(s) in ${runs} run(s) removed` })
  let count = 0
  for (const segment of text.split(/\0+/)) count += parseSegment(classify, segment, line, sink)
  return count
}

function parseSegment(classify: ValueClassifier, segment: string, line: number, sink: LineSink): number {
  const text = segment.trim()
  if (text.length === 0) return 0
  let parseError: unknown
  if (JSON_START.test(text)) {
    try {
      return classify(JSON.parse(text), line, sink)
    } catch (error) {
      parseError = error
    }
  } else parseError = `Unexpected token ${JSON.stringify(text[0])} at position 0`
  const pieces: unknown[] = []
  let fragmentChars = 0
  let fragments = 0
  let at = 0
  for (;;) {
    at = skipWhitespace(text, at)
    if (at >= text.length) break
    const end = text.charCodeAt(at) === 0x7b ? objectEnd(text, at) : -1
    if (end > 0) {
      try {
        pieces.push(JSON.parse(text.slice(at, end)))
        at = end
        continue
      } catch {
        // Balanced braces but still not JSON: treat it like any other broken fragment below.
      }
    }
    RECORD_START.lastIndex = at + 1
    const next = RECORD_START.exec(text)?.index ?? text.length
    fragments++
    fragmentChars += next - at
    at = next
  }
  if (pieces.length === 0) {
    const reason = parseError instanceof Error ? parseError.message : String(parseError)
    sink.problem({ line, kind: 'invalid-json', detail: `not JSON (${reason}): ${excerpt(text)}` })
    return 0
  }
  const torn =
    fragments > 0 ? ` and ${fragments} unparseable fragment(s) (${fragmentChars} chars, dropped)` : ''
  sink.problem({
    line,
    kind: 'glued',
    detail: `${pieces.length} JSON value(s)${torn} glued on one line; split apart`,
  })
  let count = 0
  for (const piece of pieces) count += classify(piece, line, sink)
  return count
}

function skipWhitespace(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at)
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) break
    at++
  }
  return at
}

/**
 * Index just past the `}` that closes the object opening at `start`, or -1. Aware of strings and escapes,
 * so a `}{` inside a string value is never a split point.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b) depth++
    else if (c === 0x7d && --depth === 0) return i + 1
  }
  return -1
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS
    ? `${JSON.stringify(text.slice(0, EXCERPT_CHARS))}…`
    : JSON.stringify(text)
}
