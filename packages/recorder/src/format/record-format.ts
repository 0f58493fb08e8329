/*
 * THE ON-DISK FORMAT OF A SESSIONTAPE TRANSCRIPT
 *
 * This folder (format/) is the contract between the writer (write/, lock/, repair/) and the readers (read/):
 * everything either side assumes about the bytes on disk is decided here, and nowhere else.
 *
 * FILES. A sessions directory `<dir>` holds one transcript per session, `<dir>/<sessionId>.jsonl`, and one
 * directory `<dir>/.sessiontape/` (mode 0700) for everything that is not a transcript:
 *   <dir>/.sessiontape/<sessionId>.meta.json         the meta sidecar (SessionMeta below): an index, never
 *                                                     the truth — rebuilt from the transcript when missing
 *   <dir>/.sessiontape/<sessionId>.jsonl.lock/       the single-writer lock (an atomic mkdir, proper-lockfile)
 *   <dir>/.sessiontape/<sessionId>.jsonl.lock.owner  who holds it (pid, host, start time): lock/lock-owner.ts
 *   <dir>/.sessiontape/<name>.<kind>-<UTC time>      repaired copies and other files that belong to a
 *                                                     transcript (sidecar-name.ts)
 * A log shipper's `<dir>/*.jsonl` (or `<dir>/*`) glob therefore only ever matches transcripts. Older versions
 * kept the sidecar at `<dir>/<sessionId>.meta.json`; it is still read there, never written.
 *
 * LINES. A transcript is UTF-8 text, a sequence of lines each ended by "\n". The file only grows: nothing
 * truncates, rewrites or renames a live transcript, so a tail -f or a shipper's saved offset stays valid.
 *
 * RECORDS. A line is a record when it is one JSON object whose first keys are the envelope, in this order
 * (ENVELOPE_FIELDS): "uuid" (a string, unique in the session), "parentUuid" (the uuid of the record it
 * follows, or null for a root), "sessionId", "timestamp" (ISO 8601, UTC), "type" (a non-empty string) and
 * "v" (FORMAT_VERSION) — then the caller's data fields, in the caller's order, none of them named like an
 * envelope field. The records form a tree through parentUuid; the active branch is the path from the last
 * record back to its root. A file is ours (file-ownership.ts) when its first line is such a record.
 *
 * TORN LINES. A crash can leave the last line without its "\n": a torn line. A reader reports it as a
 * torn tail, never as a record. A writer that resumes the session never removes those bytes: it appends
 * "\n" to end them, then a `recovered` record (RECOVERED_RECORD_TYPE, data `{ reason: 'torn-tail',
 * tornOffset, tornLength }`) naming the torn byte range (recovered-marker.ts). A torn line that a later
 * `recovered` record names is explained damage, not a problem (recovered-line.ts). Any other line that is
 * not a record (invalid JSON, not an object, no envelope, glued to a record, a run of NUL bytes) is a
 * problem with a kind (problem.ts) that every reader reports with its line; the records around it stay.
 *
 * SEGMENTS. A session may go on in further files, `<dir>/<sessionId>~<n>.jsonl`, each opening with a
 * `continuation` record that says which file it follows and why (segments.ts): every reader reads a
 * session's files as one.
 *
 * OTHER AGENTS' FILES. The readers also read Claude Code, Qwen Code, Gemini CLI, Codex CLI, Copilot CLI and
 * Cursor CLI transcripts (read/formats/); the writer never writes them, and never writes a file that is not
 * ours (file-ownership.ts) or anything in another agent's directory.
 */
import path from 'node:path'

/** Bumped only when a reader of the old format could misread the new one. */
export const FORMAT_VERSION = 1

/** The byte that ends every line (LINES above): defined once here for every writer, reader and repair. */
export const NEWLINE = 0x0a

/** Name of the envelope field that carries {@link FORMAT_VERSION}. */
export const FORMAT_VERSION_FIELD = 'v'

/** Envelope fields, in the order they are written. A `data` key with one of these names is rejected. */
export const ENVELOPE_FIELDS = [
  'uuid',
  'parentUuid',
  'sessionId',
  'timestamp',
  'type',
  FORMAT_VERSION_FIELD,
] as const

export type EnvelopeField = (typeof ENVELOPE_FIELDS)[number]

/** What every record on disk carries. */
export interface RecordEnvelope {
  readonly uuid: string
  /** `null` for a root: the first record of a session, or an explicit new root. */
  readonly parentUuid: string | null
  readonly sessionId: string
  /** ISO 8601, UTC. */
  readonly timestamp: string
  readonly type: string
  readonly v: number
}

/** A record as read back: the envelope plus whatever data the writer attached. */
export type SessionRecord = RecordEnvelope & { readonly [key: string]: unknown }

/**
 * Session ids become file names, so only a safe alphabet is allowed: it starts with a letter or digit,
 * at most 128 characters, and never contains `..` (checked separately).
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

export function isValidSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value) && !value.includes('..')
}

/** File name of a session's transcript inside its directory. */
export function transcriptFileName(sessionId: string): string {
  return `${sessionId}.jsonl`
}

/** File name of a session's metadata sidecar inside the sidecar directory ({@link SIDECAR_DIR_NAME}). */
export function metaFileName(sessionId: string): string {
  return `${sessionId}.meta.json`
}

/**
 * The directory, inside a sessions directory, that holds everything that is not a transcript: meta
 * sidecars, locks and their owner files, quarantined bytes, repaired copies and temporary files. Log
 * shippers are pointed at `<dir>/*.jsonl` or `<dir>/*`; neither glob reaches into a subdirectory, and a
 * dot-name is not matched by `*` in glob(3) either, so only transcripts are ever shipped.
 */
export const SIDECAR_DIR_NAME = '.sessiontape'

/** The sidecar directory of the sessions directory `dir`. */
export function sidecarDirOf(dir: string): string {
  return path.join(dir, SIDECAR_DIR_NAME)
}

/** The sidecar directory of the sessions directory that holds the transcript `filePath`. */
export function sidecarDirOfFile(filePath: string): string {
  return sidecarDirOf(path.dirname(filePath))
}

/** Where a session's metadata sidecar lives: `<dir>/.sessiontape/<sessionId>.meta.json`. */
export function metaPathOf(dir: string, sessionId: string): string {
  return path.join(sidecarDirOf(dir), metaFileName(sessionId))
}

/**
 * Where older versions kept the sidecar, next to the transcript. Read (never written) so sessions
 * recorded before the sidecar directory existed keep their figures.
 */
export function legacyMetaPathOf(dir: string, sessionId: string): string {
  return path.join(dir, metaFileName(sessionId))
}

/** Record type whose `title` data field names the session (the latest one wins). */
export const TITLE_RECORD_TYPE = 'title'

/**
 * Record type a resumed writer appends after ending a torn tail with a newline; its data names the torn bytes
 * (`{ reason: 'torn-tail', tornOffset, tornLength }`) so the transcript itself tells the story of the crash.
 */
export const RECOVERED_RECORD_TYPE = 'recovered'

/** Contents of `<sessionId>.meta.json`: a small index so listing sessions never reads transcripts. */
export interface SessionMeta {
  readonly sessionId: string
  /** ISO 8601 time of the first record. */
  readonly createdAt: string
  /** ISO 8601 time of the last persisted record. */
  readonly updatedAt: string
  readonly recordCount: number
  readonly lastUuid: string | null
  readonly title?: string
  /** {@link FORMAT_VERSION} of the transcript this describes. */
  readonly v: number
}
