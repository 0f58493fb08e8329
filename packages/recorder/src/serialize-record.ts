import { InvalidRecordError } from './errors.js'
import { ENVELOPE_FIELDS, FORMAT_VERSION, FORMAT_VERSION_FIELD, type SessionRecord } from './record-format.js'

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
}

const VERSION_JSON = `,"${FORMAT_VERSION_FIELD}":${FORMAT_VERSION}`

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
): SerializedRecord {
  const plain = toPlainData(data)
  if (redact !== undefined) return serializeRedacted(envelope, plain, redact)
  const json = stringifyData(plain)
  if (json === '{}') return { head: `${envelopeJson(envelope)}}`, body: '' }
  return { head: `${envelopeJson(envelope)},`, body: json.slice(1) }
}

/** The whole line, for the rare paths that need it as one string. */
export function lineOf(record: SerializedRecord): string {
  return `${record.head}${record.body}\n`
}

function envelopeJson(e: Envelope): string {
  // uuid and timestamp are generated here (hex, digits, `-:.TZ`) and need no escaping.
  const parent = e.parentUuid === null ? 'null' : JSON.stringify(e.parentUuid)
  return `{"uuid":"${e.uuid}","parentUuid":${parent},"sessionId":${e.sessionIdJson},"timestamp":"${e.timestamp}","type":${JSON.stringify(e.type)}${VERSION_JSON}`
}

/** `undefined` → no data; otherwise a non-array object (after `toJSON`) without envelope keys. */
function toPlainData(data: unknown): object | undefined {
  if (data === undefined) return undefined
  let value: unknown = data
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    try {
      value = (value as { toJSON: () => unknown }).toJSON()
    } catch (error) {
      throw new InvalidRecordError(`Record data's toJSON() threw: ${message(error)}`, { cause: error })
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRecordError(
      `Expected record \`data\` to be a plain object or undefined, got \`${Array.isArray(value) ? '[array]' : String(value)}\` (${value === null ? 'null' : typeof value})`,
    )
  }
  for (const field of ENVELOPE_FIELDS) {
    if (Object.prototype.propertyIsEnumerable.call(value, field)) {
      throw new InvalidRecordError(
        `Record data must not contain the envelope field \`${field}\` (reserved: ${ENVELOPE_FIELDS.join(', ')})`,
      )
    }
  }
  return value
}

function stringifyData(data: object | undefined): string {
  if (data === undefined) return '{}'
  try {
    return JSON.stringify(data)
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
