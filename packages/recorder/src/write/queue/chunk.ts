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
  /**
   * Queue position after this chunk is committed, relative to where it was taken: how many records the
   * head moves (relative, so the arrays can be compacted without invalidating a chunk being written).
   */
  readonly advance: number
  readonly nextHeadChars: number
  /** UTF-16 code units of queued text this chunk covers. */
  readonly chars: number
}
