import { ownershipOfPrefix } from '../../format/file-ownership.js'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { findMeta } from '../../format/meta-file.js'
import { isCompressed, openByteSource } from '../byte-source.js'
import { hasEnvelope } from '../../format/envelope.js'
import type { TranscriptFormat } from './transcript-format.js'
import { CLAUDE_METADATA_TYPES } from '../../format/agent-record-types.js'

/**
 * Bytes read from the start of a file to recognise its format: every agent writes its first records in
 * well under this, and reading more would make detection cost depend on the file.
 */
export const DETECT_PREFIX_BYTES = 64 * 1024
/** Complete lines looked at: the first one that says which format it is decides. */
const DETECT_MAX_LINES = 64

const GEMINI_MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'error', 'warning'])

type Verdict = TranscriptFormat | undefined

/**
 * The format of a file whose first bytes are `prefix` (at most {@link DETECT_PREFIX_BYTES}; `size` is
 * the file's size). Pure. Decided by the first line that only one format writes; a file nothing decides
 * (empty, damaged from its first line) is read as this package's format, whose reader reports every
 * problem. {@link verdictOfPrefix} says "nothing decided" instead.
 */
export function formatOfPrefix(prefix: Uint8Array, size: number): TranscriptFormat {
  return verdictOfPrefix(prefix, size) ?? 'sessiontape'
}

/**
 * {@link formatOfPrefix} without the fallback: `undefined` when no line decides. Whole lines decide first;
 * when none does, the head of the first line that is not whole JSON (cut by the prefix, torn, two records
 * glued) is read for its key fields ({@link formatOfHead}).
 */
export function verdictOfPrefix(prefix: Uint8Array, size: number): Verdict {
  const bytes = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength)
  let start = 0
  // Leading NUL bytes (a zeroed first block after a power cut) and blank space say nothing.
  while (start < bytes.length && (bytes[start] === 0 || isSpace(bytes[start]!))) start++
  if (start === bytes.length) return undefined
  // The first line that did not parse, kept to read its key fields when no whole line decides.
  let unparsed: string | undefined
  const wholeFile = bytes.length >= size
  let lines = 0
  let firstLine = true
  while (start < bytes.length && lines < DETECT_MAX_LINES) {
    let end = bytes.indexOf(0x0a, start)
    const terminated = end !== -1
    if (end === -1) {
      // The last bytes are a line only when they are the end of the file (not cut off by the prefix); a cut
      // one still shows its head.
      if (!wholeFile) {
        unparsed ??= bytes.toString('utf8', start, Math.min(bytes.length, start + HEAD_CHARS))
        break
      }
      end = bytes.length
    }
    const text = bytes.toString('utf8', start, end).trim()
    start = end + 1
    if (text.length === 0) continue
    lines++
    // A pretty-printed JSON document (Gemini's older format) starts with a line that is just `{` — a whole
    // line: a file that is only `{`, unterminated, is a torn first record of ours (a crash one byte in), and
    // so is a `{` line followed by a line that opens an object of its own: that torn record once resumed
    // (the resume ends it with a newline and appends after it), where a document's next line is a key.
    if (firstLine && text === '{' && terminated && bytes[nextNonBlank(bytes, start)] !== 0x7b)
      return 'gemini-json'
    const first = firstLine
    firstLine = false
    const verdict = formatOfLine(text)
    if (verdict === undefined && text.charCodeAt(0) === 0x7b) unparsed ??= text.slice(0, HEAD_CHARS)
    // A whole document on the first line is Gemini's older format only when nothing follows it: a header
    // line that carries `"messages": []` followed by more lines (as third-party tools write it) is JSONL.
    if (verdict === 'gemini-json' && first && terminated && nextNonBlank(bytes, start) < bytes.length)
      return 'gemini-cli'
    if (verdict !== undefined) return verdict
  }
  if (wholeFile && bytes.toString('utf8', 0, Math.min(bytes.length, 1)) === '{') {
    // One JSON document on one line (a minified legacy Gemini session).
    const verdict = formatOfDocument(bytes.toString('utf8'))
    if (verdict !== undefined) return verdict
  }
  return unparsed === undefined ? undefined : formatOfHead(unparsed)
}

/** Characters of a line's head read for its key fields. */
const HEAD_CHARS = 16 * 1024
/** A key and a scalar value (or the opening of an object or array) as JSON writes them. */
const KEY_FIELD = /"([A-Za-z_$][\w$]*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|\{|\[)/g

/**
 * The format the key fields at the head of a line show, for a line that is not whole JSON: one too long to
 * read whole (a pasted image of 855 KB in a Claude line), torn, or two records glued. Each key's first
 * occurrence is taken (the envelope's fields come before the content in every format we read), and the
 * same rules as {@link formatOfLine} decide. Nested objects stand as `{}`, arrays as `[]`.
 */
export function formatOfHead(head: string): Verdict {
  if (head.charCodeAt(0) !== 0x7b) return undefined
  const fields: Record<string, unknown> = {}
  for (const [, key, raw] of head.matchAll(KEY_FIELD)) {
    if (key === undefined || raw === undefined || key in fields) continue
    let value: unknown
    if (raw === '{') value = {}
    else if (raw === '[') value = []
    else {
      try {
        value = JSON.parse(raw)
      } catch {
        continue
      }
    }
    fields[key] = value
  }
  // A nested object's fields are unknown: `message.parts` (Qwen) stays undecided rather than read as Claude.
  if (typeof fields.message === 'object' && fields.message !== null && !Array.isArray(fields.message)) {
    if ('parts' in fields) return 'qwen-code'
    if ('content' in fields || 'usage' in fields)
      fields.message = { content: fields.content, usage: fields.usage }
  }
  return formatOfObject(fields)
}

/** The format one line of JSON shows, or undefined when it could be several (or is not JSON). */
export function formatOfLine(text: string): Verdict {
  if (text.charCodeAt(0) !== 0x7b) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  return formatOfObject(value as Record<string, unknown>)
}

/** The format one parsed line (an object) shows, or undefined when it could be several. */
function formatOfObject(o: Record<string, unknown>): Verdict {
  if (hasEnvelope(o)) return 'sessiontape'
  const foreign = formatOfIdlessLine(o)
  if (foreign !== undefined) return foreign
  if ('$set' in o || '$rewindTo' in o || '$patch' in o) return 'gemini-cli'
  if (typeof o.projectHash === 'string' && typeof o.sessionId === 'string' && o.uuid === undefined) {
    return Array.isArray(o.messages) ? 'gemini-json' : 'gemini-cli'
  }
  if (
    typeof o.id === 'string' &&
    o.uuid === undefined &&
    typeof o.type === 'string' &&
    GEMINI_MESSAGE_TYPES.has(o.type)
  ) {
    return 'gemini-cli'
  }
  if (typeof o.type === 'string' && CLAUDE_METADATA_TYPES.has(o.type)) return 'claude-code'
  if ('isSidechain' in o || 'userType' in o || 'leafUuid' in o || 'logicalParentUuid' in o)
    return 'claude-code'
  const message = o.message
  if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
    const m = message as Record<string, unknown>
    if (Array.isArray(m.parts)) return 'qwen-code'
    if ('content' in m || 'usage' in m) return 'claude-code'
  }
  if ('usageMetadata' in o || 'systemPayload' in o || 'toolCallResult' in o || o.type === 'tool_result')
    return 'qwen-code'
  return undefined
}

/**
 * The formats whose lines carry no `uuid`: Codex CLI (`{timestamp, type, payload}` rollout lines, and its
 * `history.jsonl` prompt log `{session_id, ts, text}`), Copilot CLI (`{type, data, id, parentId}` events),
 * Cursor CLI (`{role, message}` with no `type`). Gemini's messages are told apart first (no `payload`,
 * `data` or `parentId`).
 */
function formatOfIdlessLine(o: Record<string, unknown>): Verdict {
  if (o.uuid !== undefined) return undefined
  if (typeof o.type === 'string' && typeof o.timestamp === 'string' && 'payload' in o) return 'codex-cli'
  if (typeof o.session_id === 'string' && typeof o.ts === 'number' && typeof o.text === 'string')
    return 'codex-cli'
  if (typeof o.type === 'string' && typeof o.id === 'string' && 'parentId' in o && 'data' in o)
    return 'copilot-cli'
  const message = o.message
  if (
    typeof o.role === 'string' &&
    o.type === undefined &&
    message !== null &&
    typeof message === 'object' &&
    !Array.isArray(message)
  )
    return 'cursor-cli'
  return undefined
}

/** Where the first byte from `start` on that is not blank space (or NUL) is; `bytes.length` when none is. */
function nextNonBlank(bytes: Buffer, start: number): number {
  let i = start
  while (i < bytes.length && (isSpace(bytes[i]!) || bytes[i] === 0)) i++
  return i
}

function formatOfDocument(text: string): Verdict {
  try {
    const value = JSON.parse(text) as unknown
    if (
      value !== null &&
      typeof value === 'object' &&
      Array.isArray((value as { messages?: unknown }).messages)
    )
      return 'gemini-json'
  } catch {
    // Not one JSON document.
  }
  return undefined
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
}

/** {@link formatOfPrefix} of the file at `filePath` (read, never written). */
export async function detectFormat(filePath: string): Promise<TranscriptFormat> {
  const { prefix, size } = await readPrefix(filePath)
  return formatOfPrefix(prefix, size)
}

/**
 * The format of the file at `filePath`, or `undefined` when it is none we read — never a guess: its content
 * decides ({@link verdictOfPrefix}), else a sidecar of ours for it (`<sessionId>.meta.json`) makes it ours
 * (an empty transcript, or one damaged from its first byte, that a recorder of ours wrote). Read only.
 */
export async function recogniseFormat(filePath: string): Promise<TranscriptFormat | undefined> {
  const { prefix, size } = await readPrefix(filePath)
  const verdict = verdictOfPrefix(prefix, size)
  if (verdict !== undefined) return verdict
  // The contract's own rule (format/file-ownership.ts): a file that is one torn line starting like our
  // envelope is ours — a crash during the very first write.
  if (size !== Infinity && ownershipOfPrefix(prefix, size).verdict === 'ours') return 'sessiontape'
  const name = path.basename(filePath)
  if (!name.endsWith('.jsonl')) return undefined
  const { meta } = await findMeta(path.dirname(filePath), name.slice(0, -'.jsonl'.length))
  return typeof meta === 'string' ? undefined : 'sessiontape'
}

/** The first {@link DETECT_PREFIX_BYTES} of a file, and its size (`Infinity`: more than the prefix, compressed). */
async function readPrefix(filePath: string): Promise<{ prefix: Uint8Array; size: number }> {
  // A compressed file's size says nothing of its content's: one byte more than the prefix is read to know
  // whether the prefix is the whole content.
  const compressed = isCompressed(filePath)
  const size = compressed ? Infinity : (await stat(filePath)).size
  const source = await openByteSource(filePath)
  try {
    const buffer = Buffer.alloc(Math.min(size, DETECT_PREFIX_BYTES + (compressed ? 1 : 0)))
    let got = 0
    while (got < buffer.length) {
      const bytesRead = await source.read(buffer, got, buffer.length - got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    const whole = got < buffer.length || !compressed ? got : Infinity
    return {
      prefix: buffer.subarray(0, Math.min(got, DETECT_PREFIX_BYTES)),
      size: compressed ? whole : Math.max(size, got),
    }
  } finally {
    await source.close()
  }
}
