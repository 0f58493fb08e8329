import {
  FORMAT_VERSION,
  TITLE_RECORD_TYPE,
  type SessionMeta,
  type SessionRecord,
} from '../format/record-format.js'
import { classifiedLines } from './classified-lines.js'

/**
 * Lines longer than this are skipped (not counted) while a sidecar is rebuilt: listing rebuilds several
 * sessions at once, and each must stay small in memory whatever its transcript holds.
 */
const REBUILD_MAX_LINE_BYTES = 16 * 1024 * 1024

/**
 * Rebuilds a session's metadata from its transcript (one streaming pass, constant memory). `fallbackTime`
 * stands in for the record times of a transcript with no valid record.
 */
export async function rebuildMeta(
  transcriptPath: string,
  sessionId: string,
  fallbackTime: string,
  oneFile = false,
): Promise<SessionMeta> {
  let recordCount = 0
  let createdAt: string | undefined
  let updatedAt = fallbackTime
  let lastUuid: string | null = null
  // Only `title` records name a session of ours, as the live sidecar has it (see MetaWriter.setTitle).
  let title: string | undefined
  // `oneFile`: the caller (a listing) already knows the session has no segments, so the directory is not
  // listed again for each session it rebuilds.
  for await (const record of recordsOf(transcriptPath, oneFile)) {
    recordCount++
    createdAt ??= record.timestamp
    updatedAt = record.timestamp
    lastUuid = record.uuid
    if (record.type === TITLE_RECORD_TYPE && typeof record.title === 'string') title = record.title
  }
  return {
    sessionId,
    createdAt: createdAt ?? fallbackTime,
    updatedAt,
    recordCount,
    lastUuid,
    ...(title === undefined ? {} : { title }),
    v: FORMAT_VERSION,
  }
}

async function* recordsOf(transcriptPath: string, oneFile: boolean): AsyncGenerator<SessionRecord> {
  for await (const batch of classifiedLines(transcriptPath, {
    maxLineBytes: REBUILD_MAX_LINE_BYTES,
    format: 'sessiontape',
    oneFile,
  })) {
    for (const entry of batch) yield* entry.records
  }
}
