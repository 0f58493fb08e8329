import path from 'node:path'

/**
 * The on-disk record format: one JSON object per line, envelope first, then the caller's data.
 * Writers and readers share these constants so the two can never disagree.
 */

/** Bumped only when a reader of the old format could misread the new one. */
export const FORMAT_VERSION = 1

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
 * Record type written first after a resume repaired a torn tail; its data says what was quarantined
 * (`quarantinedBytes`, `quarantinePath`) so the transcript itself tells the story of the crash.
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
