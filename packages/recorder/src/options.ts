import { type RecorderError } from './errors.js'
import { type RecorderFs } from './util/recorder-fs.js'
import { type SessionRecord } from './format/record-format.js'

/** When the recorder calls `fdatasync` on the transcript. */
export type FsyncMode = 'never' | 'flush' | 'batch'

/** What `record()` does when the queue would grow past `maxQueueChars`. */
export type OverflowPolicy = 'drain-sync' | 'throw'

/**
 * Whose tools the transcript is written for. `'sessiontape'`: this package's records only.
 * `'claude-code'`: every line also carries the fields Claude Code's own tools require (ccusage,
 * claude-code-log: `isSidechain`, `userType`, `cwd`, `version`, `gitBranch`), and Claude's metadata
 * types (`summary`, `custom-title`, `ai-title`…) stay outside the parent chain. `'qwen-code'`: every
 * line also carries Qwen Code's `cwd`, `version` and `gitBranch`. `'codex'`: a new transcript starts with the
 * `session_meta` line Codex CLI writes (`cwd`, `version` from `profileFields`), and `recordTurn()` writes
 * Codex's rollout lines (`response_item`, `event_msg` `token_count`, `turn_context`), so Codex's tools
 * and `@ccusage/codex` read the file; `session_meta` and `turn_context` stay outside the parent chain.
 */
export type WriterProfile = 'sessiontape' | 'claude-code' | 'qwen-code' | 'codex'

/** Fields a writer profile puts on every line; a field of a record's own data wins over these. */
export interface ProfileFields {
  /** The working directory the session ran in. @default process.cwd() */
  readonly cwd?: string
  /** Version of the program that writes the session (Claude's tools require a string). @default '0.0.0' */
  readonly version?: string
  /** Git branch of `cwd`; `''` outside a repository. @default '' */
  readonly gitBranch?: string
  /** `claude-code` only: who typed the user turns. @default 'external' */
  readonly userType?: string
  /** `claude-code` only: true for a sub-agent's transcript (Claude's sidechains). @default false */
  readonly isSidechain?: boolean
}

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** Directory of the transcript; created (mode `0o700`) if missing. Required. */
  readonly dir: string
  /**
   * Names the transcript `<dir>/<sessionId>.jsonl`. Letters, digits, `.`, `_`, `-`; starts with a letter or
   * digit; at most 128 characters; never `..`.
   * @default a random UUID
   */
  readonly sessionId?: string
  /**
   * Continue an existing session: the parent chain continues from the last valid record of the file
   * (found by a bounded read of its tail), and a torn last line is quarantined before the first append.
   * A missing transcript starts a fresh session. Requires `sessionId`.
   * @default false
   */
  readonly resume?: boolean
  /**
   * Durability. `'never'`: bytes reach the OS page cache (they survive a process crash, not a power cut).
   * `'flush'`: `flush()`/`close()` resolve only after one `fdatasync` covering everything they wait for,
   * and after an fsync of every directory that gained an entry of ours since (the transcript created, a
   * directory level made): what they acknowledged survives a power cut.
   * `'batch'`: every write is followed by one `fdatasync` (and those directory fsyncs) before its records
   * count as persisted. A sync always covers a whole batch, never one record; a directory is synced once
   * per entry made, never per flush.
   * @default 'flush'
   */
  readonly fsync?: FsyncMode
  /**
   * Take an exclusive `proper-lockfile` lock (`<dir>/.sessiontape/<sessionId>.jsonl.lock`) so a second writer of the same session, in
   * this process or another, gets a {@link SessionLockedError} instead of forking the transcript.
   * @default true
   */
  readonly lock?: boolean
  /**
   * A lock whose directory has not been refreshed for this long belongs to a dead writer and is taken over.
   * The holder refreshes it every `lockStaleMs / 2`. Minimum 2000 (proper-lockfile's floor).
   * @default 10000
   */
  readonly lockStaleMs?: number
  /**
   * Bound on the recorder's own queued, not yet written text, in UTF-16 code units of the serialized lines
   * (bytes, for ASCII; a JavaScript string takes 1 or 2 bytes per code unit). Strings held by reference
   * count under {@link maxHeldChars} instead. Past it the `overflow` policy applies; one record may be past it.
   * @default 67108864 (64 Mi)
   */
  readonly maxQueueChars?: number
  /**
   * @deprecated The same bound as {@link maxQueueChars}, under its old name: it always counted UTF-16 code
   * units, not bytes. Accepted as an alias; giving both is a `TypeError`.
   */
  readonly maxQueueBytes?: number
  /**
   * Bound on the strings queued records hold by reference (strings of 64 Ki code units or more, escaped
   * only when written), in UTF-16 code units. They are the caller's memory — usually still referenced by
   * the agent's own history — so they are counted apart from the recorder's own text: a backlog of big
   * tool results does not make `record()` drain synchronously until this is reached. Past it the
   * `overflow` policy applies, as for `maxQueueChars`; a record whose held strings alone exceed it is refused
   * at the call with a `QueueFullError`.
   * @default an eighth of V8's heap limit in code units (a quarter of the heap at 2 bytes per code unit)
   */
  readonly maxHeldChars?: number
  /**
   * `'drain-sync'`: `record()` writes the queue synchronously once to get back under the bound; nothing is
   * lost (if even that cannot write, the records stay queued past the bound and `onError` gets
   * `ERR_RECORDER_QUEUE_FULL`). `'throw'`: `record()` throws a `QueueFullError` and accepts nothing.
   * Both count `stats().overflowEvents`.
   * @default 'drain-sync'
   */
  readonly overflow?: OverflowPolicy
  /**
   * Largest write the recorder issues, in UTF-8 bytes: no `write` call carries more. Records are batched
   * into a write whole; a record bigger than a third of this (and every record holding long strings) is
   * written in slices, each escaped and encoded within the event-loop turn's CPU budget, so this bounds
   * the size of a write, not the time a task takes. Smaller values mean more write calls: a producer that
   * queues more than this per loop turn builds a backlog until the overflow policy applies. At least 1024.
   * @default 4194304 (4 MiB)
   */
  readonly maxWriteBytes?: number
  /**
   * How often (at most) the recorder checks, before a write, that the transcript path still names the open
   * file; a deleted or replaced transcript is recreated. `0` checks before every write. Every write error
   * also triggers the check.
   * @default 1000
   */
  readonly fileCheckIntervalMs?: number
  /**
   * Keep a `<sessionId>.meta.json` sidecar (`SessionMeta`) up to date, written atomically off the hot path
   * so listing sessions never reads transcripts.
   * @default true
   */
  readonly meta?: boolean
  /**
   * Delay between a change and the sidecar write that reflects it (changes meanwhile are coalesced).
   * @default 1000
   */
  readonly metaDebounceMs?: number
  /**
   * Largest line (record + newline, in UTF-8 bytes) `record()` accepts; a bigger record is refused with a
   * `RecordTooLargeError` (`ERR_RECORD_TOO_LARGE`) and changes nothing. Set it to stay under a log shipper's line
   * limit (rsyslog imfile 8 KiB by default, syslog-ng 64 KiB…; see docs/shipping.md). Unset: no limit.
   * @default undefined
   */
  readonly maxRecordBytes?: number
  /**
   * How long the exit drain (the synchronous write of what is still queued when the process exits) may
   * take. What it could not write by then is reported on stderr with its count (`ERR_RECORDER_EXIT_UNWRITTEN`), with or
   * without `onError`. A record whose writing has begun is finished even past the bound (never half a line).
   * @default 5000
   */
  readonly exitDrainMs?: number
  /**
   * Receives every I/O failure (each failed attempt), each with a stable `code` and the OS error as `cause`.
   * Called asynchronously, never from inside `record()`; an exception it throws, or a rejection of the
   * promise it returns, is ignored.
   * Without it, the first failure of each episode is emitted as a process warning.
   */
  readonly onError?: (error: RecorderError) => unknown
  /**
   * Applied to every record before it is serialized. It receives a private deep copy of the record as it
   * would be written (envelope + data) and returns the record to write; changes to envelope fields are
   * ignored. An exception it throws makes `record()` throw an `InvalidRecordError`.
   */
  readonly redact?: (record: SessionRecord) => Record<string, unknown>
  /**
   * Write lines another agent's tools read unchanged (see {@link WriterProfile}); the file stays ours
   * (our envelope and format version come first on every line), so resume and repair still work.
   * Put the transcript where those tools look: `dir: claudeProjectDir(os.homedir() + '/.claude/projects', cwd)`.
   * @default 'sessiontape'
   */
  readonly profile?: WriterProfile
  /** The fields the profile writes on every line (see {@link ProfileFields}); only with a `profile`. @default {} */
  readonly profileFields?: ProfileFields
  /** @internal Test seam: the file system the recorder uses. */
  readonly fs?: RecorderFs
}

export interface ResolvedOptions {
  readonly dir: string
  readonly sessionId: string
  readonly resume: boolean
  readonly fsync: FsyncMode
  readonly lock: boolean
  readonly lockStaleMs: number
  readonly maxQueueChars: number
  readonly maxHeldChars: number
  readonly overflow: OverflowPolicy
  readonly maxWriteBytes: number
  readonly fileCheckIntervalMs: number
  readonly meta: boolean
  readonly metaDebounceMs: number
  readonly exitDrainMs: number
  readonly maxRecordBytes: number | undefined
  readonly onError: ((error: RecorderError) => unknown) | undefined
  readonly redact: ((record: SessionRecord) => Record<string, unknown>) | undefined
  readonly profile: WriterProfile
  /** The profile's line fields with their defaults filled in; undefined for `'sessiontape'`. */
  readonly profileFields: Readonly<Record<string, unknown>> | undefined
  readonly fs: RecorderFs | undefined
}

export const DEFAULT_MAX_QUEUE_CHARS = 64 * 1024 * 1024
// 4 MiB per write: measured with 2.5 MB tool results arriving every loop turn, 1 MiB per write fell behind
// (one write per turn) until the 64 MiB bound forced a synchronous drain; 4 MiB keeps up, and encoding it
// straight into the write buffer costs about a millisecond.
export const DEFAULT_MAX_WRITE_BYTES = 4 * 1024 * 1024
export const DEFAULT_LOCK_STALE_MS = 10_000
// proper-lockfile raises any smaller `stale` to this.
export const MIN_LOCK_STALE_MS = 2000
export const DEFAULT_FILE_CHECK_INTERVAL_MS = 1000
export const DEFAULT_META_DEBOUNCE_MS = 1000
// A few seconds: long enough to write a full 64 MiB queue on any working disk, short enough that a dead
// one cannot hold the process's exit hostage.
export const DEFAULT_EXIT_DRAIN_MS = 5000
