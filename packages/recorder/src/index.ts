export {
  ENVELOPE_FIELDS,
  FORMAT_VERSION,
  FORMAT_VERSION_FIELD,
  SESSION_ID_PATTERN,
  isValidSessionId,
  metaFileName,
  transcriptFileName,
  RECOVERED_RECORD_TYPE,
  TITLE_RECORD_TYPE,
  type SessionMeta,
  type EnvelopeField,
  type RecordEnvelope,
  type SessionRecord,
} from './record-format.js'
export { inspectTailSync, type InspectTailOptions, type TailInspection } from './tail/inspect-tail.js'
export {
  repairTornTail,
  repairTornTailSync,
  type RepairTornTailOptions,
  type TornTailRepair,
} from './tail/repair-torn-tail.js'
export { readSession, type ReadSessionOptions, type ReadSessionResult } from './read/read-session.js'
export {
  TRANSCRIPT_FORMATS,
  type FormatOption,
  type TranscriptFormat,
} from './read/formats/transcript-format.js'
export { detectFormat } from './read/formats/detect-format.js'
export type { MetadataLine } from './read/formats/metadata-line.js'
export type { EarlierSessionLink } from './read/link-index.js'
export { claudeProjectDir } from './read/formats/agent-dirs.js'
export { streamRecords, type StreamRecordsOptions } from './read/stream-records.js'
export { activeBranch, type ActiveBranch, type BranchGap } from './read/active-branch.js'
export { PROBLEM_KINDS, type ProblemKind, type ReadProblem } from './read/problem.js'
export { listSessions, type ListSessionsOptions, type SessionSummary } from './read/list-sessions.js'
export { createRecorder } from './recorder.js'
export type { Recorder, RecorderStats, RecordOptions, FlushWatermark } from './recorder-api.js'
export type { FsyncMode, OverflowPolicy, ProfileFields, RecorderOptions, WriterProfile } from './options.js'
export {
  InvalidRecordError,
  QueueFullError,
  RecordTooLargeError,
  RecorderClosedError,
  RecorderArgumentError,
  RecorderError,
  RecorderErrorCode,
  SessiontapeError,
  SessionLockedError,
  type RecorderErrorDetails,
} from './errors.js'
export { getMaxConcurrentWrites, setMaxConcurrentWrites } from './write-limiter.js'
export {
  repairTranscript,
  type RepairTranscriptOptions,
  type TranscriptRepair,
} from './tail/repair-transcript.js'
export type { RecoveredTornLine } from './read/recovered-line.js'
export {
  fileOwnership,
  fileOwnershipSync,
  ownershipOfPrefix,
  OWNERSHIP_PREFIX_BYTES,
  type FileOwnership,
  type FileOwnershipVerdict,
} from './read/file-ownership.js'
export { ForeignFileError } from './read/foreign-file-error.js'
