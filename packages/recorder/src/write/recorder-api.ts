import type { Turn } from './accept/turns/turn.js'

/** How far the transcript is known to be written: the last persisted record and how many were persisted. */
export interface FlushWatermark {
  /** uuid of the last persisted record (after `resume`, the resumed record until a new one is persisted). */
  readonly uuid: string | null
  /** Records this recorder has persisted. */
  readonly count: number
}

/** Per-call options of `record()`. */
export interface RecordOptions {
  /**
   * Parent of this record instead of `lastUuid`: a uuid for a branch or side chain, `null` for a new root.
   * The recorder writes it as given; `lastUuid` still moves to the new record (unless the record is
   * metadata: `title`, `recovered`, and in the `claude-code` profile `summary`, `custom-title`…, which
   * never become a parent).
   */
  readonly parentUuid?: string | null
  /**
   * When the record happened, instead of now: for importing history, so it keeps its own dates. An ISO
   * 8601 string with a time zone (`2025-07-01T10:00:00Z`, `2025-07-01T12:00:00.5+02:00`) or a valid
   * `Date`, years 0000–9999; written in UTC with milliseconds (`2025-07-01T10:00:00.000Z`). Anything
   * else throws an `InvalidRecordError`.
   * @default now
   */
  readonly timestamp?: string | Date
  /**
   * The caller hands `data` over: it will not change `data`, or anything reachable from it, after this
   * call. Then `record()` copies nothing (it checks only what it can check at once: that `data` is an
   * object without envelope keys) and serializes it later, in slices of about a millisecond between
   * event-loop turns, so a record of any size and shape never stalls the loop for long. What cannot be
   * told until then (a cycle, a BigInt, a throwing getter or `toJSON`, a record over `maxRecordBytes`) is
   * reported through `onError` (`ERR_RECORD_UNSERIALIZABLE`) and the record is written with its envelope
   * and a `recordError` field instead of its data, so the chain never breaks. Without it (the default),
   * `record()` serializes a snapshot at once. No effect with a `redact` hook (the hook gets a copy now).
   * @default false
   */
  readonly handOver?: boolean
}

/** Counters of one recorder, for observability. */
export interface RecorderStats {
  /** Records accepted by `record()`. */
  readonly recorded: number
  /** Records persisted (written; with `fsync: 'batch'`, also synced). */
  readonly persisted: number
  /** Records accepted and not yet written. */
  readonly pendingRecords: number
  /**
   * Queued text not yet written, in UTF-16 code units (bytes, for ASCII): the recorder's own text plus,
   * unescaped, the long strings it holds. The unit `maxQueueChars` counts in.
   */
  readonly pendingChars: number
  /**
   * @deprecated The same figure as {@link pendingChars}, under its old name: it always counted UTF-16 code
   * units, not bytes. Kept (equal to `pendingChars`) so existing callers go on working.
   */
  readonly pendingBytes: number
  /**
   * UTF-16 code units of the long strings (64 Ki code units or more) held by reference by the records not
   * yet wholly written, unescaped: your memory, kept alive until the record's last byte is written, and
   * bounded by `maxHeldChars`. A record handed over counts once it is walked.
   */
  readonly heldChars: number
  /** Completed `write` calls. */
  readonly writes: number
  /** Bytes written to the transcript. */
  readonly bytesWritten: number
  /** Completed `fdatasync` calls. */
  readonly fsyncs: number
  /** Calls retried after a transient error or a failure. */
  readonly retries: number
  /** Failures reported through `onError`. */
  readonly errors: number
  /** Most records that went out in one write. */
  readonly maxBatchRecords: number
  /** `record()` calls that found the queue past `maxQueueChars` (or `maxHeldChars`). */
  readonly overflowEvents: number
  /**
   * The file being written: the session's path, or the segment the session goes on in (a resumed session
   * in segments goes on in its last; see the README's "Segments").
   */
  readonly file: string
}

/** A session's writer. Create one with `createRecorder`. */
export interface Recorder extends AsyncDisposable {
  readonly sessionId: string
  /** Absolute path of the transcript, `<dir>/<sessionId>.jsonl`. */
  readonly filePath: string
  /** Parent of the next record: the uuid of the last record accepted (or resumed); `null` before the first. */
  readonly lastUuid: string | null
  /** uuid of the last persisted record; same as `persisted.uuid`. */
  readonly persistedUuid: string | null
  /** The persistence watermark `flush()` resolves to. */
  readonly persisted: FlushWatermark
  /**
   * Appends a record. Synchronous: builds the envelope, serializes a snapshot of `data`, queues it, moves
   * `lastUuid`, and returns the new uuid. Throws `InvalidRecordError` for bad input, `RecorderClosedError`
   * after `close()`, and with `overflow: 'throw'` a `QueueFullError`; a throw changes nothing.
   */
  record(type: string, data?: object, options?: RecordOptions): string
  /**
   * Records one conversation turn — a user or assistant message (with model and token usage), thinking, a
   * tool call or result, a title — in the shape the writer `profile` calls for (see the README's "Typed
   * turns"), so every reader sees the same turns and usage tools count the same tokens. Returns the uuid
   * of the last record written for it (a turn may take more than one line, e.g. a Codex usage event).
   * A malformed turn throws an `InvalidRecordError` and records nothing.
   */
  recordTurn(turn: Turn, options?: Pick<RecordOptions, 'parentUuid' | 'timestamp'>): string
  /**
   * Resolves once every record accepted before the call is written (and synced when `fsync` asks), to the
   * watermark at that moment. Rejects with a `RecorderError` (stating how many records are unwritten) when
   * the attempt it waits for fails.
   */
  flush(): Promise<FlushWatermark>
  /**
   * Writes everything queued synchronously, now (for a shutdown hook that cannot wait). Throws a
   * `RecorderError` if records remain unwritten.
   */
  flushSync(): FlushWatermark
  /** Resolves once the transcript is open for writing and the lock is held; rejects if getting there failed. */
  ready(): Promise<void>
  /** Stops accepting records, flushes, closes the file and releases the lock. Idempotent. */
  close(): Promise<void>
  stats(): RecorderStats
}
