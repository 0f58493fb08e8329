/**
 * The meta sidecar on disk (`<dir>/.sessiontape/<id>.meta.json`): reading and validating one, and finding a
 * session's sidecar where this or an older version kept it. Writers and readers share this file.
 */
import { constants } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { legacyMetaPathOf, metaPathOf, type SessionMeta } from './record-format.js'

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

/** What {@link readMeta} returns for a sidecar that is not there. */
const NO_SIDECAR = 'no sidecar'

/** A session's sidecar as found, and where: `metaPath` is the file it came from (or would have). */
export interface FoundMeta {
  readonly meta: SessionMeta | string
  readonly metaPath: string
}

/**
 * Reads a session's sidecar from the sidecar directory (`<dir>/.sessiontape/<id>.meta.json`) or, when there
 * is none there, from where older versions kept it (`<dir>/<id>.meta.json`). The older place is only ever
 * read: every write goes to the sidecar directory.
 */
export async function findMeta(dir: string, sessionId: string): Promise<FoundMeta> {
  const metaPath = metaPathOf(dir, sessionId)
  const meta = await readMeta(metaPath, sessionId)
  if (meta !== NO_SIDECAR) return { meta, metaPath }
  const legacyPath = legacyMetaPathOf(dir, sessionId)
  const legacy = await readMeta(legacyPath, sessionId)
  return legacy === NO_SIDECAR ? { meta, metaPath } : { meta: legacy, metaPath: legacyPath }
}
