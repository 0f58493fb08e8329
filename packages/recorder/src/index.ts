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
} from './format/record-format.js'
export {
  CONTINUATION_RECORD_TYPE,
  CONTINUATION_REASONS,
  segmentFileName,
  type Continuation,
  type ContinuationReason,
} from './format/segments.js'
export { inspectTailSync, type InspectTailOptions, type TailInspection } from './write/resume/inspect-tail.js'
export {
  repairTornTail,
  repairTornTailSync,
  type RepairTornTailOptions,
  type TornTailRepair,
} from './repair/repair-torn-tail.js'
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
export { PROBLEM_KINDS, type ProblemKind, type ReadProblem } from './format/problem.js'
export { listSessions, type ListSessionsOptions, type SessionSummary } from './read/list-sessions.js'
export { createRecorder } from './write/recorder.js'
export type { Recorder, RecorderStats, RecordOptions, FlushWatermark } from './write/recorder-api.js'
export type { Turn, TurnKind, TurnUsage } from './write/accept/turns/turn.js'
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
  type RecordCount,
} from './errors.js'
export { getMaxConcurrentWrites, setMaxConcurrentWrites } from './util/write-limiter.js'
export {
  repairTranscript,
  type RepairTranscriptOptions,
  type TranscriptRepair,
} from './repair/repair-transcript.js'
export type { RecoveredTornLine } from './format/recovered-line.js'
export {
  fileOwnership,
  fileOwnershipSync,
  ownershipOfPrefix,
  OWNERSHIP_PREFIX_BYTES,
  type FileOwnership,
  type FileOwnershipVerdict,
} from './format/file-ownership.js'
export { ForeignFileError } from './format/foreign-file-error.js'
