import { legacyMetaPathOf, metaPathOf, type SessionMeta } from '../record-format.js'
import { readMeta } from './session-meta.js'

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
