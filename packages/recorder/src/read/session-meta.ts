import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type WriteFileAtomic from 'write-file-atomic'
import { FORMAT_VERSION, TITLE_RECORD_TYPE, type SessionMeta } from '../record-format.js'
import { streamRecords } from './stream-records.js'

// write-file-atomic pulls in signal-exit: loaded on first use, so importing the package touches nothing.
let writeFileAtomic: typeof WriteFileAtomic | undefined

/** Sidecars are as private as the transcripts they describe. */
const META_MODE = 0o600

/** Reads and validates a `<sessionId>.meta.json` sidecar; returns why it cannot be used instead of throwing. */
export async function readMeta(metaPath: string, sessionId: string): Promise<SessionMeta | string> {
  let text: string
  try {
    text = await readFile(metaPath, 'utf8')
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
  let title: string | undefined
  for await (const record of streamRecords(transcriptPath)) {
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

/** Writes a sidecar atomically (temp file + rename), so a reader never sees half of one. */
export async function writeMeta(metaPath: string, meta: SessionMeta): Promise<void> {
  // In a bundle, `require` is the bundler's and the literal call is bundled (see meta-writer.ts).
  writeFileAtomic ??=
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- a literal require() is what bundlers follow
        (require('write-file-atomic') as typeof WriteFileAtomic)
      : (createRequire(import.meta.url)('write-file-atomic') as typeof WriteFileAtomic)
  await writeFileAtomic(metaPath, `${JSON.stringify(meta)}\n`, { mode: META_MODE })
}
