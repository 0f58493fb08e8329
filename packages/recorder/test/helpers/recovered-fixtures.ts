import { FORMAT_VERSION, type SessionRecord } from '../../src/format/record-format.js'

/**
 * Hand-built transcripts of the append-only torn-tail recovery: a crash leaves torn bytes, the resumed
 * writer ends them with "\n" (if they lack one) and appends a `recovered` record naming their byte range.
 * Built byte by byte, so each test states exactly what is on disk.
 */

const TIME = '2026-01-01T00:00:00.000Z'

export function line(uuid: string, parentUuid: string | null, data: Record<string, unknown> = {}): string {
  const record: SessionRecord = {
    uuid,
    parentUuid,
    sessionId: 's1',
    timestamp: TIME,
    type: 'message',
    v: FORMAT_VERSION,
    text: `record ${uuid}`,
    ...data,
  }
  return `${JSON.stringify(record)}\n`
}

export function recoveredLine(
  uuid: string,
  parentUuid: string | null,
  tornOffset: number,
  tornLength: number,
): string {
  return `${JSON.stringify({ uuid, parentUuid, sessionId: 's1', timestamp: TIME, type: 'recovered', v: FORMAT_VERSION, reason: 'torn-tail', tornOffset, tornLength })}\n`
}

/** Builds a file from parts, where a torn part is followed by the recovered record that names it. */
export class TranscriptBuilder {
  #text = ''
  /** Byte offset of the next part. */
  get offset(): number {
    return Buffer.byteLength(this.#text)
  }
  get text(): string {
    return this.#text
  }
  add(part: string): this {
    this.#text += part
    return this
  }
  /**
   * Appends `torn` (the crash's bytes), then what the resumed writer appends: "\n" if `torn` does not end
   * with one, and a `recovered` record naming the torn bytes (or, with `skew`, a range that is off).
   */
  crash(
    torn: string,
    recoveredUuid: string,
    parentUuid: string | null,
    skew = { offset: 0, length: 0 },
  ): this {
    const tornOffset = this.offset
    const tornLength = Buffer.byteLength(torn)
    this.#text += torn.endsWith('\n') ? torn : `${torn}\n`
    this.#text += recoveredLine(recoveredUuid, parentUuid, tornOffset + skew.offset, tornLength + skew.length)
    return this
  }
}
