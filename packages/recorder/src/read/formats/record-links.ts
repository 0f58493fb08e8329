import { RECOVERED_RECORD_TYPE, TITLE_RECORD_TYPE, type SessionRecord } from '../../format/record-format.js'
import { CONTINUATION_RECORD_TYPE } from '../../format/segments.js'

/**
 * The parent a branch walk follows from `record`. Usually its `parentUuid`; Claude Code's compaction
 * starts a fresh chain (`compact_boundary` has `parentUuid: null`) and keeps the link to the conversation
 * it compacted in `logicalParentUuid`, so the walk continues there and the active branch crosses the
 * compaction. The record itself is never changed: `parentUuid` stays null as written.
 */
export function linkParentOf(record: SessionRecord): string | null {
  const parent = record.parentUuid
  if (parent !== null) return parent
  const logical = record.logicalParentUuid
  if (typeof logical === 'string' && logical.length > 0 && record.subtype === 'compact_boundary')
    return logical
  return null
}

/** Our own metadata records: they name or explain the session and are never a conversation's leaf. */
const OWN_METADATA_TYPES: ReadonlySet<string> = new Set([
  TITLE_RECORD_TYPE,
  RECOVERED_RECORD_TYPE,
  CONTINUATION_RECORD_TYPE,
])

/**
 * Whether `record` can end the active branch when no leaf is given: not our metadata (`title`,
 * `recovered`), and not a sidechain (Claude Code's sub-agent traffic, `isSidechain: true`), which hangs
 * off the conversation but is not where it stands.
 */
export function isLeafCandidate(record: SessionRecord): boolean {
  return record.isSidechain !== true && !OWN_METADATA_TYPES.has(record.type)
}

/** The index of the record the active branch ends at by default: the last leaf candidate, else the last. */
export function defaultLeafIndex(records: readonly SessionRecord[]): number {
  for (let i = records.length - 1; i >= 0; i--) if (isLeafCandidate(records[i]!)) return i
  return records.length - 1
}
