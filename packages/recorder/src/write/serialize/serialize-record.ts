import { InvalidRecordError, RecordTooLargeError } from '../../errors.js'
import {
  ENVELOPE_FIELDS,
  FORMAT_VERSION,
  FORMAT_VERSION_FIELD,
  NEWLINE,
  type SessionRecord,
} from '../../format/record-format.js'
import { mayHoldString } from './held-scan.js'
import { type HeldText, textOf, unitAt, utf8BytesBounds, utf8BytesOf, wholeText } from './held-text.js'
import type { JsonWalk } from './json-walk.js'
import { stringifyHolding } from './json-walk.js'

/** The envelope of one record, decided by the recorder before serialization. */
export interface Envelope {
  readonly uuid: string
  readonly parentUuid: string | null
  /** `sessionId` already encoded as a JSON string literal (it never changes, so it is encoded once). */
  readonly sessionIdJson: string
  readonly timestamp: string
  readonly type: string
}

type Redact = (record: SessionRecord) => Record<string, unknown>

/**
 * One queued record: the one entry type of the queue, whose bytes are produced on demand (record-queue.ts).
 * `head` is the envelope, up to the comma before the data or the closing brace; `body` the data's JSON
 * without its opening brace (`''` when there is no data) — flat text, or {@link HeldText} whose held strings
 * are escaped only when written. The line on disk is `head + body + '\n'`. Never concatenating them matters
 * for big records: a concatenation is a rope that must be flattened (copied) before it can be encoded,
 * while flat strings are encoded straight into the write buffer.
 *
 * A record handed over (`record(…, { handOver: true })`) is queued with its envelope alone as `head`, an
 * empty `body` and its data's walk as `handedOver`; once the walk has run (when the record is next to be
 * written) it is replaced by its line (see hand-over.ts). Nothing after it is written before it.
 */
export interface QueuedRecord {
  readonly head: string
  readonly body: string | HeldText
  readonly handedOver: HandedOverData | null
}

/** The data of a record handed over, and the walk that serializes it. */
export interface HandedOverData {
  readonly type: string
  readonly data: object
  readonly walk: JsonWalk
  /** The data's top level was checked for envelope keys just before the walk read it (see hand-over.ts). */
  checked: boolean
}

const VERSION_JSON = `,"${FORMAT_VERSION_FIELD}":${FORMAT_VERSION}`

/**
 * Serializes one record (see {@link QueuedRecord}). The envelope is written as a prefix and
 * the caller's data is stringified once and spliced in after it, so `data` is never copied into a new
 * object on the hot path. Throws {@link InvalidRecordError} for data that cannot become a record; the
 * result is a snapshot: later mutation of `data` cannot change it.
 */
export function serializeRecord(envelope: Envelope, data: unknown, redact: Redact | undefined): QueuedRecord {
  const plain = toPlainData(data)
  if (redact !== undefined) return serializeRedacted(envelope, plain, redact)
  return dataLine(envelopeJson(envelope), stringifyData(plain))
}

/** The entry queued for a record handed over: its envelope, and its data still to be walked. */
export function handedOverEntry(envelope: Envelope, handedOver: HandedOverData): QueuedRecord {
  return { head: envelopeJson(envelope), body: '', handedOver }
}

/**
 * The line of a record whose envelope (`head` without the comma or brace after it) and data's JSON are
 * known. Throws {@link InvalidRecordError} when the JSON is not an object's (a `toJSON` of data handed over
 * that returned something else).
 */
export function dataLine(envelope: string, json: string | HeldText | undefined): QueuedRecord {
  if (typeof json === 'string' && json.startsWith('{')) {
    // `handedOver: null` spelled out: every record has the same shape, so the queue's reads stay monomorphic.
    if (json === '{}') return { head: `${envelope}}`, body: '', handedOver: null }
    return { head: `${envelope},`, body: json.slice(1), handedOver: null }
  }
  const first = typeof json === 'object' ? json.parts[0] : undefined
  if (typeof first !== 'string' || !first.startsWith('{')) {
    throw new InvalidRecordError('Expected record `data` to serialize to a JSON object')
  }
  const text = json as HeldText
  // The brace dropped is one code unit and one byte.
  const body: HeldText = {
    parts: [first.slice(1), ...text.parts.slice(1)],
    chars: text.chars - 1,
    heldChars: text.heldChars,
    textBytes: text.textBytes - 1,
  }
  return { head: `${envelope},`, body, handedOver: null }
}

/**
 * What is written for a record handed over whose data could not be serialized: its envelope (so the chain
 * holds) and `recordError: { code, message }` instead of its data.
 */
export function unserializableLine(
  entry: QueuedRecord,
  error: InvalidRecordError,
  withMessage = true,
): QueuedRecord {
  const recordError = withMessage ? { code: error.code, message: error.message } : { code: error.code }
  const body = JSON.stringify({ recordError }).slice(1)
  return { head: `${entry.head},`, body, handedOver: null }
}

/**
 * UTF-8 bytes of the shortest line a record handed over can end as (its envelope and the code of an error,
 * newline included): a `maxRecordBytes` below it is refused in `record()`, where it can be told.
 */
export function leastHandedOverBytes(entry: QueuedRecord): number {
  const line = unserializableLine(entry, new RecordTooLargeError('', 0, 0), false)
  return Buffer.byteLength(line.head) + Buffer.byteLength(line.body as string) + 1
}

/** UTF-16 code units the record's line stands for in the queue (held strings count raw, quotes included). */
export function lineChars(record: QueuedRecord): number {
  const { body } = record
  return record.head.length + (typeof body === 'string' ? body.length : body.chars) + 1
}

/** Code units of the strings the record holds by reference (the caller's memory). */
export function heldCharsOf(record: QueuedRecord): number {
  const { body } = record
  return typeof body === 'string' ? 0 : body.heldChars
}

/**
 * `null` when the line (newline included) is at most `limit` UTF-8 bytes; otherwise its size, exact for an
 * ordinary record and a lower bound above `limit` for one holding strings. Those are first bounded
 * without escaping anything (1 to 6 bytes per code unit), and escaped and measured only when the bounds
 * straddle the limit, stopping once past it: the cost is O(limit), whatever the record's size.
 */
export function bytesOverLimit(record: QueuedRecord, limit: number): number | null {
  const head = Buffer.byteLength(record.head) + 1
  const { body } = record
  const bytes =
    typeof body === 'string' ? head + Buffer.byteLength(body) : head + heldBytesOverLimit(body, limit - head)
  return bytes > limit ? bytes : null
}

function heldBytesOverLimit(text: HeldText, limit: number): number {
  const { low, high } = utf8BytesBounds(text)
  if (low > limit || high <= limit) return low
  return utf8BytesOf(text, limit)
}

/** @internal How much the type cache holds (test seam for its bound). */
export function typeCacheSize(): { readonly entries: number; readonly chars: number } {
  let chars = 0
  for (const [type, json] of typeJsonCache) chars += type.length + json.length
  return { entries: typeJsonCache.size, chars }
}

/** The whole line, for the rare paths that need it as one string. */
export function lineOf(record: QueuedRecord): string {
  const { body } = record
  return `${record.head}${typeof body === 'string' ? body : wholeText(body)}\n`
}

/** UTF-8 bytes of a record's line (an ordinary one: its body is flat text). */
export function lineBytes(record: QueuedRecord): number {
  return Buffer.byteLength(record.head) + Buffer.byteLength(record.body as string) + 1
}

/** The text of units [from, to) of the record's line (held strings escaped), appended to `out`. */
export function lineText(record: QueuedRecord, from: number, to: number, out: string[]): void {
  const { head, body } = record
  if (from < head.length) out.push(head.slice(from, Math.min(to, head.length)))
  const total = lineChars(record)
  const bodyFrom = Math.max(from - head.length, 0)
  const bodyTo = Math.min(to - head.length, total - 1 - head.length)
  if (bodyTo > bodyFrom) {
    if (typeof body === 'string') out.push(body.slice(bodyFrom, bodyTo))
    else textOf(body, bodyFrom, bodyTo, out)
  }
  if (to === total) out.push('\n')
}

/** The code unit at `index` of the record's line (of a held string: its raw text's; at the end: the newline). */
export function lineCharCodeAt(record: QueuedRecord, index: number): number {
  if (index < record.head.length) return record.head.charCodeAt(index)
  const inBody = index - record.head.length
  const { body } = record
  if (typeof body !== 'string') return inBody < body.chars ? unitAt(body, inBody) : NEWLINE
  return inBody < body.length ? body.charCodeAt(inBody) : NEWLINE
}

// A session uses a handful of record types over and over: their JSON literals are encoded once. Bounded in
// entries and in size: only short types are kept (a type is a name, not a payload), so a caller inventing
// a new type per record, or 1 MiB type strings, can hold at most TYPE_CACHE_MAX × TYPE_CACHE_MAX_CHARS.
const typeJsonCache = new Map<string, string>()
const TYPE_CACHE_MAX = 256
const TYPE_CACHE_MAX_CHARS = 128
// Lower-case hex and dashes, as recordUuid() and randomUUID() make them: such a parent needs no escaping.
const PLAIN_UUID = /^[0-9a-f-]{36}$/

function typeJson(type: string): string {
  let json = typeJsonCache.get(type)
  if (json === undefined) {
    json = JSON.stringify(type)
    if (typeJsonCache.size < TYPE_CACHE_MAX && type.length <= TYPE_CACHE_MAX_CHARS)
      typeJsonCache.set(type, json)
  }
  return json
}

// The uuid of the last envelope built: the recorder generated it, so it needs no escaping, and it is the
// next record's parent in the default chain — which then skips the PLAIN_UUID test.
let lastUuid = ''

function envelopeJson(e: Envelope): string {
  // uuid and timestamp are generated by the recorder (hex, digits, `-:.TZ`) and need no escaping.
  const parent =
    e.parentUuid === null
      ? 'null'
      : e.parentUuid === lastUuid || PLAIN_UUID.test(e.parentUuid)
        ? `"${e.parentUuid}"`
        : JSON.stringify(e.parentUuid)
  lastUuid = e.uuid
  return `{"uuid":"${e.uuid}","parentUuid":${parent},"sessionId":${e.sessionIdJson},"timestamp":"${e.timestamp}","type":${typeJson(e.type)}${VERSION_JSON}`
}

/** What `JSON.stringify` would serialize for `data`: its `toJSON()` result when it has one. */
export function applyToJSON(data: unknown): unknown {
  if (data === null || typeof data !== 'object') return data
  if (typeof (data as { toJSON?: unknown }).toJSON !== 'function') return data
  try {
    return (data as { toJSON: () => unknown }).toJSON()
  } catch (error) {
    throw new InvalidRecordError(`Record data's toJSON() threw: ${message(error)}`, { cause: error })
  }
}

/** `undefined` → no data; otherwise a non-array object (after `toJSON`) without envelope keys. */
export function toPlainData(data: unknown): object | undefined {
  if (data === undefined) return undefined
  const value = applyToJSON(data)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRecordError(
      `Expected record \`data\` to be a plain object or undefined, got \`${Array.isArray(value) ? '[array]' : String(value)}\` (${value === null ? 'null' : typeof value})`,
    )
  }
  refuseEnvelopeKeys(value)
  return value
}

/**
 * Throws {@link InvalidRecordError} when `value` has an own enumerable envelope key (`uuid`, `type`, …): in
 * `record()`, and again for data handed over just before its walk reads it (keys added after the call).
 */
export function refuseEnvelopeKeys(value: object): void {
  for (const field of ENVELOPE_FIELDS) {
    // `in` first: cheap, and it reads no property (no getter runs); the exact test only when it says yes.
    if (field in value && Object.prototype.propertyIsEnumerable.call(value, field)) {
      throw new InvalidRecordError(
        `Record data must not contain the envelope field \`${field}\` (reserved: ${ENVELOPE_FIELDS.join(', ')})`,
      )
    }
  }
}

/** The data's JSON, a snapshot: one string, or — when it holds long strings — text with them held. */
function stringifyData(data: object | undefined): string | HeldText | undefined {
  if (data === undefined) return '{}'
  try {
    return mayHoldString(data) ? stringifyHolding(data) : JSON.stringify(data)
  } catch (error) {
    // Circular structures and BigInt values land here.
    throw new InvalidRecordError(`Record data cannot be serialized to JSON: ${message(error)}`, {
      cause: error,
    })
  }
}

function serializeRedacted(envelope: Envelope, data: object | undefined, redact: Redact): QueuedRecord {
  // The hook gets a deep copy of exactly what would be written (toJSON applied, undefined dropped), so it may
  // mutate freely without touching the caller's objects.
  const record = JSON.parse(lineOf(serializeRecord(envelope, data, undefined))) as SessionRecord
  let redacted: unknown
  try {
    redacted = redact(record)
  } catch (error) {
    throw new InvalidRecordError(`The redact hook threw: ${message(error)}`, { cause: error })
  }
  if (redacted === null || typeof redacted !== 'object' || Array.isArray(redacted)) {
    throw new InvalidRecordError('The redact hook must return the record (an object) to write')
  }
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(redacted)) {
    if (!(ENVELOPE_FIELDS as readonly string[]).includes(key)) rest[key] = value
  }
  return serializeRecord(envelope, rest, undefined)
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
