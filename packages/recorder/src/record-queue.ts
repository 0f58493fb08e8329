/** A run of queued text handed to one write: whole records, or one slice of a record too big for one write. */
export interface Chunk {
  readonly buffer: Buffer
  /** How many records end inside this chunk (their last byte, the newline, is in it). */
  readonly completes: number
  /** uuid of the last record that ends in this chunk; `null` when none does. */
  readonly lastUuid: string | null
  /** Timestamps of the first and last records that end in this chunk; `null` when none does. */
  readonly firstTimestamp: string | null
  readonly lastTimestamp: string | null
  /** Queue position after this chunk is committed. */
  readonly nextHead: number
  readonly nextHeadChars: number
  /** UTF-16 code units of queued text this chunk covers. */
  readonly chars: number
}

// Compacting the arrays costs O(pending); doing it only when the consumed prefix is large and more than
// half of the arrays keeps it amortized O(1) per record.
const COMPACT_MIN_HEAD = 1024

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/**
 * The records accepted by `record()` and not yet written, in order. Text stays as the strings `record()`
 * produced until a chunk is taken; a chunk is removed only when it is committed (fully written), so a failed
 * or interrupted write leaves the queue exactly as it was.
 */
export class RecordQueue {
  #lines: string[] = []
  #uuids: string[] = []
  #timestamps: string[] = []
  // Index of the first unwritten record.
  #head = 0
  // Characters of the head record already written by earlier slices (only for a record bigger than a write).
  #headChars = 0
  #pendingChars = 0

  get pendingRecords(): number {
    return this.#lines.length - this.#head
  }

  /** UTF-16 code units of text not yet written. */
  get pendingChars(): number {
    return this.#pendingChars
  }

  get isEmpty(): boolean {
    return this.#head >= this.#lines.length
  }

  push(line: string, uuid: string, timestamp: string): void {
    this.#lines.push(line)
    this.#uuids.push(uuid)
    this.#timestamps.push(timestamp)
    this.#pendingChars += line.length
  }

  /** Replaces the text of a queued record no part of which has been taken yet (the `recovered` record). */
  replace(uuid: string, line: string): boolean {
    for (let i = this.#head; i < this.#lines.length; i++) {
      if (this.#uuids[i] !== uuid) continue
      if (i === this.#head && this.#headChars > 0) return false
      this.#pendingChars += line.length - this.#lines[i]!.length
      this.#lines[i] = line
      return true
    }
    return false
  }

  /**
   * The next chunk to write, at most `maxChars` code units of text, without removing it. Records are never
   * split across chunks unless one alone exceeds `maxChars`; a surrogate pair is never split.
   */
  nextChunk(maxChars: number): Chunk | null {
    const head = this.#head
    const lines = this.#lines
    if (head >= lines.length) return null
    const first = lines[head]!
    if (this.#headChars > 0 || first.length > maxChars) {
      let end = Math.min(first.length, this.#headChars + maxChars)
      if (end < first.length && isHighSurrogate(first.charCodeAt(end - 1))) end--
      const done = end === first.length
      return {
        buffer: Buffer.from(first.slice(this.#headChars, end), 'utf8'),
        completes: done ? 1 : 0,
        lastUuid: done ? this.#uuids[head]! : null,
        firstTimestamp: done ? this.#timestamps[head]! : null,
        lastTimestamp: done ? this.#timestamps[head]! : null,
        nextHead: done ? head + 1 : head,
        nextHeadChars: done ? 0 : end,
        chars: end - this.#headChars,
      }
    }
    let end = head + 1
    let chars = first.length
    while (end < lines.length && chars + lines[end]!.length <= maxChars) chars += lines[end++]!.length
    const text = end === head + 1 ? first : lines.slice(head, end).join('')
    return {
      buffer: Buffer.from(text, 'utf8'),
      completes: end - head,
      lastUuid: this.#uuids[end - 1]!,
      firstTimestamp: this.#timestamps[head]!,
      lastTimestamp: this.#timestamps[end - 1]!,
      nextHead: end,
      nextHeadChars: 0,
      chars,
    }
  }

  /**
   * Forgets that the head record was partly written (its first slices went into a file that has since been
   * replaced): it is written again from its first byte.
   */
  rewindHead(): void {
    this.#pendingChars += this.#headChars
    this.#headChars = 0
  }

  /** Removes a chunk taken by {@link nextChunk} once all its bytes are written. */
  commit(chunk: Chunk): void {
    for (let i = this.#head; i < chunk.nextHead; i++) this.#lines[i] = ''
    this.#head = chunk.nextHead
    this.#headChars = chunk.nextHeadChars
    this.#pendingChars -= chunk.chars
    if (this.#head >= this.#lines.length) {
      this.#lines.length = 0
      this.#uuids.length = 0
      this.#timestamps.length = 0
      this.#head = 0
    } else if (this.#head >= COMPACT_MIN_HEAD && this.#head * 2 >= this.#lines.length) {
      this.#lines.splice(0, this.#head)
      this.#uuids.splice(0, this.#head)
      this.#timestamps.splice(0, this.#head)
      this.#head = 0
    }
  }
}
