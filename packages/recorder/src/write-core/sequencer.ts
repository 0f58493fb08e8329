import { randomUUID } from 'node:crypto'

import { InvalidRecordError, RecorderClosedError } from '../errors.js'
import { isoTimestamp } from '../iso-timestamp.js'
import type { RecordOptions } from '../recorder-api.js'
import type { RecordQueue } from '../record-queue.js'
import type { SessionRecord } from '../record-format.js'
import { lineChars, type SerializedRecord, serializeRecord } from '../serialize-record.js'

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
  #lastUuid: string | null
  #recorded = 0
  #accepting = true

  constructor(
    queue: RecordQueue,
    sessionId: string,
    redact: ((record: SessionRecord) => Record<string, unknown>) | undefined,
    resumedUuid: string | null,
  ) {
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

  get accepting(): boolean {
    return this.#accepting
  }

  stopAccepting(): void {
    this.#accepting = false
  }

  /**
   * Validates and serializes one record without accepting it yet (the overflow policy decides first).
   * Every bad input throws an {@link InvalidRecordError}: whatever `data` does (a throwing getter or Proxy
   * trap, a revoked Proxy) is caught here, so nothing is queued and the chain does not move.
   */
  prepare(type: unknown, data: unknown, options: RecordOptions | undefined): Prepared {
    if (!this.#accepting) {
      throw new RecorderClosedError(
        `Cannot record "${String(type)}": the recorder of session "${this.#sessionId}" is closed`,
      )
    }
    if (typeof type !== 'string' || type.length === 0) {
      throw new InvalidRecordError(
        `Expected record \`type\` to be a non-empty string, got \`${typeof type === 'string' ? '""' : safeString(type)}\` (${typeof type})`,
      )
    }
    const parentUuid = this.#parentFor(options)
    const uuid = randomUUID()
    const timestamp = isoTimestamp()
    let serialized: SerializedRecord
    try {
      serialized = serializeRecord(
        { uuid, parentUuid, sessionIdJson: this.#sessionIdJson, timestamp, type },
        data,
        this.#redact,
      )
    } catch (error) {
      if (error instanceof InvalidRecordError) throw error
      // A getter, a Proxy trap or a revoked Proxy inside `data` threw while it was being read.
      throw new InvalidRecordError(`Record data could not be read: ${describe(error)}`, { cause: error })
    }
    return { type, uuid, timestamp, serialized, chars: lineChars(serialized) }
  }

  /** Accepts a prepared record: it is queued, and the chain moves to it. */
  accept(prepared: Prepared): void {
    this.#queue.push(prepared.serialized, prepared.uuid, prepared.timestamp)
    this.#lastUuid = prepared.uuid
    this.#recorded++
  }

  /** Queues a record the recorder itself makes (the `recovered` record of a resume), first in the chain. */
  acceptOwn(serialized: SerializedRecord, uuid: string, timestamp: string): void {
    this.#queue.push(serialized, uuid, timestamp)
    this.#lastUuid = uuid
    this.#recorded++
  }

  #parentFor(options: RecordOptions | undefined): string | null {
    if (options === undefined) return this.#lastUuid
    if (options === null || typeof options !== 'object') {
      throw new InvalidRecordError(
        `Expected record \`options\` to be an object, got \`${safeString(options)}\` (${typeof options})`,
      )
    }
    let parent: unknown
    try {
      parent = options.parentUuid
    } catch (error) {
      throw new InvalidRecordError(`Record options could not be read: ${describe(error)}`, { cause: error })
    }
    if (parent === undefined) return this.#lastUuid
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
  readonly serialized: SerializedRecord
  /** UTF-16 code units of its line, newline included: what it adds to the queue. */
  readonly chars: number
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
