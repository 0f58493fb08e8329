import { InvalidRecordError, RecorderClosedError, type RecorderErrorDetails } from '../../errors.js'
import { isoTimestamp } from '../../util/iso-timestamp.js'
import { recordUuid } from '../../util/record-uuid.js'
import type { RecordOptions } from '../recorder-api.js'
import type { RecordQueue } from '../queue/record-queue.js'
import type { SessionRecord } from '../../format/record-format.js'
import {
  handedOverEntry,
  heldCharsOf,
  lineChars,
  type QueuedRecord,
  serializeRecord,
  toPlainData,
} from '../serialize/serialize-record.js'
import { JsonWalk } from '../serialize/json-walk.js'
import { recordTimestamp, SESSIONTAPE_RULES, withProfileFields, type ProfileRules } from './writer-profile.js'

/**
 * The synchronous front of the recorder: `record()` validates its input, builds the envelope, moves the
 * parent chain, serializes a snapshot of the data and queues it. It owns the chain (`lastUuid`) and the
 * count of accepted records; it never touches the file.
 */
export class Sequencer {
  readonly #queue: RecordQueue
  readonly #sessionIdJson: string
  readonly #redact: ((record: SessionRecord) => Record<string, unknown>) | undefined
  readonly #sessionId: string
  // Fields a writer profile adds to every line, and the metadata types that never become a parent.
  readonly #rules: ProfileRules
  // The session's details for a RecorderClosedError (the facade knows the path and the unwritten count).
  readonly #details: () => RecorderErrorDetails
  #lastUuid: string | null
  #recorded = 0
  #accepting = true

  constructor(
    queue: RecordQueue,
    sessionId: string,
    redact: ((record: SessionRecord) => Record<string, unknown>) | undefined,
    resumedUuid: string | null,
    rules: ProfileRules = SESSIONTAPE_RULES,
    details: () => RecorderErrorDetails = () => ({ sessionId, filePath: '', unwrittenRecords: 0 }),
  ) {
    this.#details = details
    this.#rules = rules
    this.#queue = queue
    this.#sessionId = sessionId
    this.#sessionIdJson = JSON.stringify(sessionId)
    this.#redact = redact
    this.#lastUuid = resumedUuid
  }

  get lastUuid(): string | null {
    return this.#lastUuid
  }

  /** Records accepted so far. */
  get recorded(): number {
    return this.#recorded
  }

  stopAccepting(): void {
    this.#accepting = false
  }

  /**
   * Validates and serializes one record without accepting it yet (the overflow policy decides first).
   * Every bad input throws an {@link InvalidRecordError}: whatever `data` does (a throwing getter or Proxy
   * trap, a revoked Proxy) is caught here, so nothing is queued and the chain does not move.
   *
   * A record handed over (`handOver: true`, when there is no redact hook) is checked only as far as it can
   * be at once (an object without envelope keys) and queued with its data's walk, which runs when it is
   * next to be written (see hand-over.ts).
   */
  prepare(type: unknown, data: unknown, options: RecordOptions | undefined): Prepared {
    if (!this.#accepting) {
      throw new RecorderClosedError(
        `Cannot record "${safeString(type)}": the recorder of session "${this.#sessionId}" is closed`,
        this.#details(),
      )
    }
    if (typeof type !== 'string' || type.length === 0) {
      throw new InvalidRecordError(
        `Expected record \`type\` to be a non-empty string, got \`${typeof type === 'string' ? '""' : safeString(type)}\` (${typeof type})`,
      )
    }
    const metadata = this.#rules.metadataTypes.has(type)
    const parentUuid = this.#parentFor(options, metadata)
    const timestamp = this.#timestampFor(options)
    const handOver = handOverOf(options) && this.#redact === undefined
    const uuid = recordUuid()
    const envelope = { uuid, parentUuid, sessionIdJson: this.#sessionIdJson, timestamp, type }
    const fields = this.#rules.fields
    let serialized: QueuedRecord
    try {
      if (handOver) {
        // What can be told at once is told here: an object (after its toJSON) without envelope keys. A
        // writer profile's fields are merged now (a copy of the top level's keys, as without handOver).
        const plain = toPlainData(fields === undefined ? data : withProfileFields(data, fields)) ?? {}
        serialized = handedOverEntry(envelope, {
          type,
          data: plain,
          walk: new JsonWalk(plain),
          checked: false,
        })
      } else {
        serialized = serializeRecord(
          envelope,
          fields === undefined ? data : withProfileFields(data, fields),
          this.#redact,
        )
      }
    } catch (error) {
      if (error instanceof InvalidRecordError) throw error
      // A getter, a Proxy trap or a revoked Proxy inside `data` threw while it was being read.
      throw new InvalidRecordError(`Record data could not be read: ${describe(error)}`, { cause: error })
    }
    return {
      type,
      uuid,
      timestamp,
      serialized,
      chars: lineChars(serialized),
      heldChars: heldCharsOf(serialized),
      joinsChain: !metadata,
    }
  }

  /**
   * Accepts a prepared record: it is queued (`over`: as the one record allowed past the queue's bound),
   * and the chain moves to it (unless it is metadata).
   */
  accept(prepared: Prepared, over = false): void {
    this.#queue.push(prepared.serialized, prepared.uuid, prepared.timestamp, over)
    if (prepared.joinsChain) this.#lastUuid = prepared.uuid
    this.#recorded++
  }

  /**
   * Queues a record the recorder itself makes (the `recovered` record of a resume). It is metadata: the
   * chain stays where the resume found it, so the next record's parent is the last conversation record.
   */
  acceptOwn(serialized: QueuedRecord, uuid: string, timestamp: string): void {
    this.#queue.push(serialized, uuid, timestamp)
    this.#recorded++
  }

  #timestampFor(options: RecordOptions | undefined): string {
    if (options === undefined || options === null || typeof options !== 'object') return isoTimestamp()
    let given: unknown
    try {
      given = options.timestamp
    } catch (error) {
      throw new InvalidRecordError(`Record options could not be read: ${describe(error)}`, { cause: error })
    }
    return given === undefined ? isoTimestamp() : recordTimestamp(given)
  }

  #parentFor(options: RecordOptions | undefined, metadata: boolean): string | null {
    const implicit = metadata && this.#rules.metadataParentIsNull ? null : this.#lastUuid
    if (options === undefined) return implicit
    if (options === null || typeof options !== 'object') {
      throw new InvalidRecordError(
        `Expected record \`options\` to be an object, got \`${safeString(options)}\` (${typeof options})`,
      )
    }
    for (const key in options) {
      if (key !== 'parentUuid' && key !== 'timestamp' && key !== 'handOver') {
        throw new InvalidRecordError(
          `Unknown record option \`${key}\` (known: parentUuid, timestamp, handOver); nothing was recorded`,
        )
      }
    }
    let parent: unknown
    try {
      parent = options.parentUuid
    } catch (error) {
      throw new InvalidRecordError(`Record options could not be read: ${describe(error)}`, { cause: error })
    }
    if (parent === undefined) return implicit
    if (parent !== null && (typeof parent !== 'string' || parent.length === 0)) {
      throw new InvalidRecordError(
        `Expected \`parentUuid\` to be a non-empty string or null, got \`${safeString(parent)}\` (${typeof parent})`,
      )
    }
    return parent
  }
}

/** A record validated and serialized by {@link Sequencer.prepare}, not accepted yet. */
export interface Prepared {
  readonly type: string
  readonly uuid: string
  readonly timestamp: string
  /** Its queue entry (for a record handed over: its envelope and its data's walk, see hand-over.ts). */
  readonly serialized: QueuedRecord
  /** False for a metadata record (`title`, `recovered`, a profile's metadata types): never a parent. */
  readonly joinsChain: boolean
  /** UTF-16 code units of its line, newline included: what it adds to the queue (held strings too). */
  readonly chars: number
  /** Of which the strings held by reference (the caller's memory, bounded apart). */
  readonly heldChars: number
}

/** The `handOver` record option; anything but a boolean (or undefined) is refused. */
function handOverOf(options: RecordOptions | undefined): boolean {
  if (options === undefined || options === null || typeof options !== 'object') return false
  let given: unknown
  try {
    given = options.handOver
  } catch (error) {
    throw new InvalidRecordError(`Record options could not be read: ${describe(error)}`, { cause: error })
  }
  if (given === undefined || given === false) return false
  if (given === true) return true
  throw new InvalidRecordError(
    `Expected \`handOver\` to be a boolean, got \`${safeString(given)}\` (${typeof given})`,
  )
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : safeString(error)
}

/** String(value) that cannot throw (a revoked Proxy or a throwing toString would). */
function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
