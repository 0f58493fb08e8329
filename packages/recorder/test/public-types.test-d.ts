// Type-level tests of the recorder's public surface, checked by `pnpm typecheck` (tsc over test/): every
// exported name is imported here (one that disappears or is renamed fails the check), with the shapes a
// consumer relies on and the misuse the compiler must refuse.
import { expectTypeOf } from 'vitest'
import {
  activeBranch,
  claudeProjectDir,
  createRecorder,
  detectFormat,
  ENVELOPE_FIELDS,
  fileOwnership,
  fileOwnershipSync,
  ForeignFileError,
  FORMAT_VERSION,
  FORMAT_VERSION_FIELD,
  getMaxConcurrentWrites,
  inspectTailSync,
  InvalidRecordError,
  isValidSessionId,
  listSessions,
  metaFileName,
  OWNERSHIP_PREFIX_BYTES,
  ownershipOfPrefix,
  PROBLEM_KINDS,
  QueueFullError,
  readSession,
  RECOVERED_RECORD_TYPE,
  RecordTooLargeError,
  RecorderArgumentError,
  RecorderClosedError,
  RecorderError,
  RecorderErrorCode,
  repairTornTail,
  repairTornTailSync,
  repairTranscript,
  SESSION_ID_PATTERN,
  SessionLockedError,
  SessiontapeError,
  setMaxConcurrentWrites,
  streamRecords,
  TITLE_RECORD_TYPE,
  transcriptFileName,
  TRANSCRIPT_FORMATS,
  type ActiveBranch,
  type BranchGap,
  type EarlierSessionLink,
  type EnvelopeField,
  type FileOwnership,
  type FileOwnershipVerdict,
  type FlushWatermark,
  type FormatOption,
  type FsyncMode,
  type InspectTailOptions,
  type ListSessionsOptions,
  type MetadataLine,
  type OverflowPolicy,
  type ProblemKind,
  type ProfileFields,
  type ReadProblem,
  type ReadSessionOptions,
  type ReadSessionResult,
  type RecordEnvelope,
  type Recorder,
  type RecorderErrorDetails,
  type RecorderOptions,
  type RecorderStats,
  type RecordOptions,
  type RecoveredTornLine,
  type RepairTornTailOptions,
  type RepairTranscriptOptions,
  type SessionMeta,
  type SessionRecord,
  type SessionSummary,
  type StreamRecordsOptions,
  type TailInspection,
  type TornTailRepair,
  type TranscriptFormat,
  type TranscriptRepair,
  type Turn,
  type TurnKind,
  type TurnUsage,
  type WriterProfile,
} from '@sessiontape/recorder'

// Writing: createRecorder is synchronous; record() returns the uuid at once.
expectTypeOf(createRecorder).parameter(0).toEqualTypeOf<RecorderOptions>()
expectTypeOf(createRecorder).returns.toEqualTypeOf<Recorder>()
expectTypeOf<Recorder['record']>().returns.toBeString()
expectTypeOf<Recorder['record']>().parameter(2).toEqualTypeOf<RecordOptions | undefined>()
expectTypeOf<Recorder['flush']>().returns.toEqualTypeOf<Promise<FlushWatermark>>()
expectTypeOf<Recorder['flushSync']>().returns.toEqualTypeOf<FlushWatermark>()
expectTypeOf<Recorder['close']>().returns.toEqualTypeOf<Promise<void>>()
expectTypeOf<Recorder['stats']>().returns.toEqualTypeOf<RecorderStats>()
expectTypeOf<Recorder>().toHaveProperty(Symbol.asyncDispose)
expectTypeOf<Recorder['recordTurn']>().parameter(0).toEqualTypeOf<Turn>()
expectTypeOf<Recorder['recordTurn']>().returns.toBeString()
expectTypeOf<TurnKind>().toEqualTypeOf<
  'user' | 'assistant' | 'thinking' | 'tool-call' | 'tool-result' | 'title'
>()
expectTypeOf<TurnUsage['inputTokens']>().toBeNumber()
expectTypeOf<FlushWatermark>().toEqualTypeOf<{ readonly uuid: string | null; readonly count: number }>()
expectTypeOf<RecordOptions['handOver']>().toEqualTypeOf<boolean | undefined>()
expectTypeOf<FsyncMode>().toEqualTypeOf<'never' | 'flush' | 'batch'>()
expectTypeOf<OverflowPolicy>().toEqualTypeOf<'drain-sync' | 'throw'>()
expectTypeOf<WriterProfile>().toEqualTypeOf<'sessiontape' | 'claude-code' | 'qwen-code' | 'codex'>()
expectTypeOf<ProfileFields>().toHaveProperty('cwd')
expectTypeOf(getMaxConcurrentWrites).returns.toBeNumber()
expectTypeOf(setMaxConcurrentWrites).parameter(0).toBeNumber()
// @ts-expect-error `dir` is required.
createRecorder({})
// @ts-expect-error data is an object, never a string.
expectTypeOf<Recorder['record']>().toBeCallableWith('user', 'text')

// The on-disk format.
expectTypeOf(FORMAT_VERSION).toBeNumber()
expectTypeOf(FORMAT_VERSION_FIELD).toBeString()
expectTypeOf(ENVELOPE_FIELDS).toEqualTypeOf<
  readonly ['uuid', 'parentUuid', 'sessionId', 'timestamp', 'type', 'v']
>()
expectTypeOf<EnvelopeField>().toEqualTypeOf<(typeof ENVELOPE_FIELDS)[number]>()
expectTypeOf<RecordEnvelope['parentUuid']>().toEqualTypeOf<string | null>()
expectTypeOf<SessionRecord>().toMatchTypeOf<RecordEnvelope>()
expectTypeOf(SESSION_ID_PATTERN).toEqualTypeOf<RegExp>()
expectTypeOf(isValidSessionId).guards.toBeString()
expectTypeOf(transcriptFileName).returns.toBeString()
expectTypeOf(metaFileName).returns.toBeString()
expectTypeOf(RECOVERED_RECORD_TYPE).toBeString()
expectTypeOf(TITLE_RECORD_TYPE).toBeString()
expectTypeOf<SessionMeta['recordCount']>().toBeNumber()

// Reading.
expectTypeOf(readSession).returns.toEqualTypeOf<Promise<ReadSessionResult>>()
expectTypeOf(readSession).parameter(1).toEqualTypeOf<ReadSessionOptions | undefined>()
expectTypeOf<ReadSessionResult['records']>().toEqualTypeOf<SessionRecord[]>()
expectTypeOf<ReadSessionResult['problems']>().toEqualTypeOf<ReadProblem[]>()
expectTypeOf<ReadSessionResult['recovered']>().toEqualTypeOf<RecoveredTornLine[]>()
expectTypeOf<ReadSessionResult['metadata']>().toEqualTypeOf<MetadataLine[]>()
expectTypeOf<ReadSessionResult['earlierSession']>().toEqualTypeOf<EarlierSessionLink[]>()
expectTypeOf<ReadSessionResult['format']>().toEqualTypeOf<TranscriptFormat>()
expectTypeOf<ReadProblem['kind']>().toEqualTypeOf<ProblemKind>()
expectTypeOf(PROBLEM_KINDS).toEqualTypeOf<readonly ProblemKind[]>()
expectTypeOf(streamRecords).returns.toMatchTypeOf<AsyncIterable<SessionRecord>>()
expectTypeOf(streamRecords).parameter(1).toEqualTypeOf<StreamRecordsOptions | undefined>()
expectTypeOf(activeBranch).returns.toEqualTypeOf<ActiveBranch>()
expectTypeOf<ActiveBranch['gaps']>().toEqualTypeOf<BranchGap[]>()
expectTypeOf(listSessions).returns.toEqualTypeOf<Promise<SessionSummary[]>>()
expectTypeOf(listSessions).parameter(1).toEqualTypeOf<ListSessionsOptions | undefined>()
expectTypeOf(TRANSCRIPT_FORMATS).toEqualTypeOf<readonly TranscriptFormat[]>()
expectTypeOf<'auto'>().toMatchTypeOf<FormatOption>()
expectTypeOf(detectFormat).returns.toEqualTypeOf<Promise<TranscriptFormat>>()
expectTypeOf(claudeProjectDir).returns.toBeString()

// Ownership, inspection, repair.
expectTypeOf(fileOwnership).returns.toEqualTypeOf<Promise<FileOwnership>>()
expectTypeOf(fileOwnershipSync).returns.toEqualTypeOf<FileOwnership>()
expectTypeOf(ownershipOfPrefix).returns.toEqualTypeOf<FileOwnership>()
expectTypeOf<FileOwnership['verdict']>().toEqualTypeOf<FileOwnershipVerdict>()
expectTypeOf<FileOwnershipVerdict>().toEqualTypeOf<'ours' | 'foreign' | 'empty' | 'unknown'>()
expectTypeOf(OWNERSHIP_PREFIX_BYTES).toBeNumber()
expectTypeOf(inspectTailSync).returns.toEqualTypeOf<TailInspection>()
expectTypeOf(inspectTailSync).parameter(1).toEqualTypeOf<InspectTailOptions | undefined>()
// undefined: a live recorder holds the session, so nothing was repaired.
expectTypeOf(repairTornTail).returns.toEqualTypeOf<Promise<TornTailRepair | undefined>>()
expectTypeOf(repairTornTail).parameter(1).toEqualTypeOf<RepairTornTailOptions | undefined>()
expectTypeOf(repairTornTailSync).returns.toEqualTypeOf<TornTailRepair>()
expectTypeOf(repairTranscript).returns.toEqualTypeOf<Promise<TranscriptRepair>>()
expectTypeOf(repairTranscript).parameter(1).toEqualTypeOf<RepairTranscriptOptions | undefined>()

// Errors: one base class, stable codes.
expectTypeOf<RecorderError['code']>().toEqualTypeOf<RecorderErrorCode>()
expectTypeOf(RecorderErrorCode.WRITE_FAILED).toEqualTypeOf<'ERR_RECORDER_WRITE_FAILED'>()
expectTypeOf(RecorderError.prototype).toMatchTypeOf<SessiontapeError>()
expectTypeOf(SessiontapeError.prototype).toMatchTypeOf<Error>()
expectTypeOf(SessionLockedError.prototype).toMatchTypeOf<RecorderError>()
expectTypeOf<
  'ERR_RECORDER_WRITE_FAILED' | 'ERR_FOREIGN_FILE' | 'ERR_SESSION_LOCKED'
>().toMatchTypeOf<RecorderErrorCode>()
expectTypeOf(InvalidRecordError.prototype).toMatchTypeOf<Error>()
expectTypeOf(QueueFullError.prototype).toMatchTypeOf<Error>()
expectTypeOf(RecordTooLargeError.prototype).toMatchTypeOf<Error>()
expectTypeOf(RecorderClosedError.prototype).toMatchTypeOf<Error>()
expectTypeOf(RecorderArgumentError.prototype).toMatchTypeOf<Error>()
expectTypeOf(ForeignFileError.prototype).toMatchTypeOf<Error>()
expectTypeOf<RecorderErrorDetails>().toBeObject()
