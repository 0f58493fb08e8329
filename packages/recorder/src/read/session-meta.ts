import { constants } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { FORMAT_VERSION, TITLE_RECORD_TYPE, type SessionMeta } from '../record-format.js'
import { streamRecords } from './stream-records.js'

/**
 * Lines longer than this are skipped (not counted) while a sidecar is rebuilt: listing rebuilds several
 * sessions at once, and each must stay small in memory whatever its transcript holds.
 */
const REBUILD_MAX_LINE_BYTES = 16 * 1024 * 1024

/** Reads and validates a `<sessionId>.meta.json` sidecar; returns why it cannot be used instead of throwing. */
export async function readMeta(metaPath: string, sessionId: string): Promise<SessionMeta | string> {
  return readMetaWith(metaPath, sessionId, 'r')
}

/** {@link readMeta} without following a symlink at `metaPath` (a symlink there is not a sidecar of ours). */
export async function readMetaNoFollow(metaPath: string, sessionId: string): Promise<SessionMeta | string> {
  return readMetaWith(metaPath, sessionId, constants.O_RDONLY | constants.O_NOFOLLOW)
}

async function readMetaWith(
  metaPath: string,
  sessionId: string,
  flags: string | number,
): Promise<SessionMeta | string> {
  let text: string
  try {
    text = await readFile(metaPath, { encoding: 'utf8', flag: flags as string })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? 'no sidecar' : `sidecar unreadable (${code ?? String(error)})`
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'sidecar is not valid JSON'
  }
  const defect = metaDefect(value, sessionId)
  return defect === undefined ? (value as SessionMeta) : `sidecar ${defect}`
}

function metaDefect(value: unknown, sessionId: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object'
  const meta = value as Record<string, unknown>
  if (meta.sessionId !== sessionId) return `names another session (${JSON.stringify(meta.sessionId)})`
  for (const field of ['createdAt', 'updatedAt'] as const) {
    const time = meta[field]
    if (typeof time !== 'string' || Number.isNaN(Date.parse(time))) return `has no valid \`${field}\``
  }
  const count = meta.recordCount
  if (!(typeof count === 'number' && Number.isSafeInteger(count) && count >= 0))
    return 'has no valid `recordCount`'
  if (!(meta.lastUuid === null || typeof meta.lastUuid === 'string')) return 'has no valid `lastUuid`'
  if (!(meta.title === undefined || typeof meta.title === 'string')) return 'has an invalid `title`'
  if (typeof meta.v !== 'number') return 'has no format version `v`'
  return undefined
}

/**
 * Rebuilds a session's metadata from its transcript (one streaming pass, constant memory). `fallbackTime`
 * stands in for the record times of a transcript with no valid record.
 */
export async function rebuildMeta(
  transcriptPath: string,
  sessionId: string,
  fallbackTime: string,
): Promise<SessionMeta> {
  let recordCount = 0
  let createdAt: string | undefined
  let updatedAt = fallbackTime
  let lastUuid: string | null = null
  // Only `title` records name a session of ours, as the live sidecar has it (see MetaWriter.setTitle).
  let title: string | undefined
  for await (const record of streamRecords(transcriptPath, {
    maxLineBytes: REBUILD_MAX_LINE_BYTES,
    format: 'sessiontape',
  })) {
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
