/**
 * Internal parts of the recorder that the other sessiontape packages (`@sessiontape/cli`,
 * `@sessiontape/sessions`) build on: the readers' building blocks and the repair's lock. Not public API: no
 * semver promise; an agent uses the package's main entry. Only building blocks live here: a name the main
 * entry exports is imported from it, never from here.
 */
export { lineParserFor } from './read/formats/line-parser-for.js'
export { quoteJson, stringifyJson } from './util/stringify-json.js'
export { TornLineTracker, type ClassifiedLine } from './read/torn-line-tracker.js'
export { MISSING, ROOT, type LinkIndex } from './read/link-index.js'
export { lineBatches } from './read/line-batches.js'
export { indexByUuid } from './read/check-links.js'
export { classifiedLines } from './read/classified-lines.js'
export { isLeafCandidate, linkParentOf } from './read/formats/record-links.js'
export { scanTranscript, type TranscriptScan } from './read/scan-transcript.js'
export { lockPathOf } from './lock/session-lock.js'
export { sidecarPathFor } from './format/sidecar-name.js'
export { withSessionLock } from './lock/with-session-lock.js'
export { resolveFormat } from './read/formats/resolve-format.js'
export { groupCodexThreads } from './read/formats/codex-threads.js'
export {
  segmentedSessions,
  sessionFiles,
  type SegmentedSessions,
  type SessionFile,
} from './read/session-files.js'
export { segmentNameParts } from './format/segments.js'
export { recogniseFormat } from './read/formats/detect-format.js'
