import { InvalidRecordError, RecordTooLargeError } from '../errors.js'
import {
  ENVELOPE_FIELDS,
  FORMAT_VERSION,
  FORMAT_VERSION_FIELD,
  type SessionRecord,
} from '../format/record-format.js'
import { LAZY_TOTAL_CHARS, LONG_STRING_CHARS } from './lazy-json-scan.js'
import { type LazyJson, stringifyLazily } from './lazy-json.js'
import { utf8BytesBounds, utf8BytesOf, wholeText } from './lazy-json-text.js'

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
 * One record's line, kept in two flat parts: `head` (the envelope, up to the comma before the data or the
 * closing brace) and `body` (the data's JSON without its opening brace, `''` when there is no data). The line
 * on disk is `head + body + '\n'`. Never concatenating them matters for big records: a concatenation is
 * a rope that must be flattened (copied) before it can be encoded, while two flat strings are encoded
 * straight into the write buffer.
 */
export interface SerializedRecord {
  readonly head: string
  readonly body: string
  /**
   * Set when the data holds long strings too big to escape inside `record()` (strings of
   * {@link LONG_STRING_CHARS} code units or more adding up to {@link LAZY_TOTAL_CHARS}): then `body` is `''` and the data's JSON, without its opening brace, is this text whose
   * big strings are escaped only when written, a slice per write (see lazy-json-text.ts).
   */
  readonly lazy?: LazyJson
}

const VERSION_JSON = `,"${FORMAT_VERSION_FIELD}":${FORMAT_VERSION}`

/** Which strings `record()` holds by reference: those of `minChars` or more, once they add up to `totalChars`. */
export interface HeldStrings {
  readonly minChars: number
  readonly totalChars: number
}

/** While the queue has room: long strings adding up to 1 Mi code units are escaped later, as written. */
export const HOLD_LONG_STRINGS: HeldStrings = { minChars: LONG_STRING_CHARS, totalChars: LAZY_TOTAL_CHARS }

/**
 * While the queue is past an eighth of its bound: only strings of 8 Mi code units or more are held. The rest is
 * escaped inside `record()`, which slows a producer that outruns the disk by what its records cost to
 * serialize — instead of letting it reach the bound, where the overflow policy writes half the bound
 * synchronously. (Measured on the `big` workload, 2.5 MB records every loop turn: holding them all made the
 * queue reach the bound; loop max 97 ms, 85 synchronous calls.) Strings of 8 Mi or more are held even then:
 * escaping one costs 25 ms or more.
 */
export const HOLD_HUGE_STRINGS: HeldStrings = { minChars: 8 * 1024 * 1024, totalChars: 8 * 1024 * 1024 }

/**
 * Serializes one record (see {@link SerializedRecord}). The envelope is written as a prefix and
 * the caller's data is stringified once and spliced in after it, so `data` is never copied into a new
 * object on the hot path. Throws {@link InvalidRecordError} for data that cannot become a record; the
 * result is a snapshot: later mutation of `data` cannot change it.
 */
export function serializeRecord(
  envelope: Envelope,
  data: unknown,
  redact: Redact | undefined,
  held: HeldStrings = HOLD_LONG_STRINGS,
): SerializedRecord {
  const plain = toPlainData(data)
  if (redact !== undefined) return serializeRedacted(envelope, plain, redact)
  const json = stringifyData(plain, held)
  if (typeof json !== 'string') return { head: `${envelopeJson(envelope)},`, body: '', lazy: json }
  // `lazy: undefined` spelled out: every record has the same shape, so the queue's reads stay monomorphic.
  if (json === '{}') return { head: `${envelopeJson(envelope)}}`, body: '', lazy: undefined }
  return { head: `${envelopeJson(envelope)},`, body: json.slice(1), lazy: undefined }
}

/**
 * The `lazy` of a record handed over (`record(…, { handOver: true })`) whose data is not serialized yet:
 * the queue holds its envelope and writes nothing from it, or after it, until {@link handedOverLine}
 * replaces it.
 */
export const DATA_PENDING: LazyJson = Object.freeze({ parts: Object.freeze([]), chars: 0 })

/** The placeholder queued for a record handed over: its envelope, `head` without the comma or brace after it. */
export function handedOverPlaceholder(envelope: Envelope): SerializedRecord {
  return { head: envelopeJson(envelope), body: '', lazy: DATA_PENDING }
}

/**
 * The line of a record handed over, once its data's JSON (`json`, whole, from the incremental serializer)
 * is known. Throws {@link InvalidRecordError} when it is not an object's (a `toJSON` of the data that
 * returned something else).
 */
export function handedOverLine(
  placeholder: SerializedRecord,
  json: string | LazyJson | undefined,
): SerializedRecord {
  const envelope = placeholder.head
  if (typeof json === 'string' && json.startsWith('{')) {
    if (json === '{}') return { head: `${envelope}}`, body: '', lazy: undefined }
    return { head: `${envelope},`, body: json.slice(1), lazy: undefined }
  }
  const first = typeof json === 'object' ? json.parts[0] : undefined
  if (typeof first !== 'string' || !first.startsWith('{')) {
    throw new InvalidRecordError('Expected record `data` to serialize to a JSON object')
  }
  const lazy = json as LazyJson
  return {
    head: `${envelope},`,
    body: '',
    // The brace dropped is one code unit and one byte.
    lazy: {
      parts: [first.slice(1), ...lazy.parts.slice(1)],
      chars: lazy.chars - 1,
      textBytes: lazy.textBytes === undefined ? undefined : lazy.textBytes - 1,
    },
  }
}

/**
 * What is written for a record handed over whose data could not be serialized: its envelope (so the chain
 * holds) and `recordError: { code, message }` instead of its data.
 */
export function unserializableLine(
  placeholder: SerializedRecord,
  error: InvalidRecordError,
  withMessage = true,
): SerializedRecord {
  const recordError = withMessage ? { code: error.code, message: error.message } : { code: error.code }
  const body = JSON.stringify({ recordError }).slice(1)
  return { head: `${placeholder.head},`, body, lazy: undefined }
}

/**
 * UTF-8 bytes of the shortest line a record handed over can end as (its envelope and the code of an error,
 * newline included): a `maxRecordBytes` below it is refused in `record()`, where it can be told.
 */
export function leastHandedOverBytes(placeholder: SerializedRecord): number {
  const line = unserializableLine(placeholder, new RecordTooLargeError('', 0, 0), false)
  return Buffer.byteLength(line.head) + Buffer.byteLength(line.body) + 1
}

/** UTF-16 code units the record's line stands for in the queue (a lazy body counts its big strings raw). */
export function lineChars(record: SerializedRecord): number {
  return record.head.length + (record.lazy === undefined ? record.body.length : record.lazy.chars) + 1
}

/**
 * `null` when the line (newline included) is at most `limit` UTF-8 bytes; otherwise its size, exact for an
 * ordinary record and a lower bound above `limit` for one holding big strings. Those are first bounded
 * without escaping anything (1 to 6 bytes per code unit), and escaped and measured only when the bounds
 * straddle the limit, stopping once past it: the cost is O(limit), whatever the record's size.
 */
export function bytesOverLimit(record: SerializedRecord, limit: number): number | null {
  const head = Buffer.byteLength(record.head) + 1
  const { lazy } = record
  const bytes =
    lazy === undefined ? head + Buffer.byteLength(record.body) : head + lazyBytesOverLimit(lazy, limit - head)
  return bytes > limit ? bytes : null
}

function lazyBytesOverLimit(lazy: LazyJson, limit: number): number {
  const { low, high } = utf8BytesBounds(lazy)
  if (low > limit || high <= limit) return low
  return utf8BytesOf(lazy, limit)
}

/** @internal How much the type cache holds (test seam for its bound). */
export function typeCacheSize(): { readonly entries: number; readonly chars: number } {
  let chars = 0
  for (const [type, json] of typeJsonCache) chars += type.length + json.length
  return { entries: typeJsonCache.size, chars }
}

/** The whole line, for the rare paths that need it as one string. */
export function lineOf(record: SerializedRecord): string {
  return `${record.head}${record.lazy === undefined ? record.body : wholeText(record.lazy)}\n`
}

// A session uses a handful of record types over and over: their JSON literals are encoded once. Bounded in
// entries and in size: only short types are kept (a type is a name, not a payload), so a caller inventing
// a new type per record, or 1 MiB type strings, can hold at most TYPE_CACHE_MAX × TYPE_CACHE_MAX_CHARS.
const typeJsonCache = new Map<string, string>()
const TYPE_CACHE_MAX = 256
const TYPE_CACHE_MAX_CHARS = 128
// Lower-case hex and dashes, as randomUUID() makes them: such a parent needs no escaping.
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
  for (const field of ENVELOPE_FIELDS) {
    // `in` first: cheap, and it reads no property (no getter runs); the exact test only when it says yes.
    if (field in value && Object.prototype.propertyIsEnumerable.call(value, field)) {
      throw new InvalidRecordError(
        `Record data must not contain the envelope field \`${field}\` (reserved: ${ENVELOPE_FIELDS.join(', ')})`,
      )
    }
  }
  return value
}

/**
 * The data's JSON: one string, or — when it holds big strings — the same text with them held by reference,
 * its opening brace already dropped (what `body` would hold).
 */
function stringifyData(data: object | undefined, held: HeldStrings): string | LazyJson {
  if (data === undefined) return '{}'
  try {
    const json = stringifyLazily(data, held.minChars, held.totalChars)
    if (typeof json === 'string') return json
    const [first, ...rest] = json.parts
    // An object always opens with its brace and a key; anything else (a toJSON returning something that is
    // not an object) keeps the native path it always had.
    if (typeof first !== 'string' || !first.startsWith('{')) return JSON.stringify(data)
    return { parts: [first.slice(1), ...rest], chars: json.chars - 1 }
  } catch (error) {
    // Circular structures and BigInt values land here.
    throw new InvalidRecordError(`Record data cannot be serialized to JSON: ${message(error)}`, {
      cause: error,
    })
  }
}

function serializeRedacted(envelope: Envelope, data: object | undefined, redact: Redact): SerializedRecord {
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
