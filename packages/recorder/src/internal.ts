/**
 * Internal parts of the recorder that the other sessiontape packages (`@sessiontape/cli`,
 * `@sessiontape/sessions`) build on: the readers' building blocks and the repair's lock. Not public API: no
 * semver promise; an agent uses the package's main entry.
 */
export { lineParserFor } from './read/formats/line-parser-for.js'
export {
  TRANSCRIPT_FORMATS,
  type FormatOption,
  type TranscriptFormat,
} from './read/formats/transcript-format.js'
export { quoteJson, stringifyJson } from './util/stringify-json.js'
export { TornLineTracker, type ClassifiedLine } from './read/torn-line-tracker.js'
export { MISSING, ROOT, type LinkIndex } from './read/link-index.js'
export { lineBatches } from './read/line-batches.js'
export { ENVELOPE_FIELDS, type SessionRecord } from './format/record-format.js'
export { type ReadProblem } from './format/problem.js'
export { type RecoveredTornLine } from './format/recovered-line.js'
export { listSessions, type SessionSummary } from './read/list-sessions.js'
export { activeBranch, type ActiveBranch, type BranchGap } from './read/active-branch.js'
export { indexByUuid } from './read/check-links.js'
export { classifiedLines } from './read/classified-lines.js'
export { isLeafCandidate, linkParentOf } from './read/formats/record-links.js'
export { readSession, type ReadSessionResult } from './read/read-session.js'
export { scanTranscript, type TranscriptScan } from './read/scan-transcript.js'
export { fileOwnership } from './format/file-ownership.js'
export { ForeignFileError } from './format/foreign-file-error.js'
export { repairTranscript, type TranscriptRepair } from './repair/repair-transcript.js'
export { lockPathOf } from './lock/session-lock.js'
export { sidecarPathFor } from './format/sidecar-name.js'
export { withSessionLock } from './lock/with-session-lock.js'
export { resolveFormat } from './read/formats/resolve-format.js'
export { groupCodexThreads } from './read/formats/codex-threads.js'
