import path from 'node:path'

import { type MetaBase, MetaWriter } from './meta-writer.js'
import { readMeta } from './read/session-meta.js'
import { metaFileName } from './record-format.js'
import { limited } from './write-limiter.js'

/** Where a fresh session's counts start. */
export const FRESH_META_BASE: MetaBase = { createdAt: null, recordCount: 0, title: undefined }

/** The meta sidecar writer of one session, in `dir`, beside its transcript. */
export function createMetaWriter(
  dir: string,
  sessionId: string,
  debounceMs: number,
  onError: (error: unknown) => void,
): MetaWriter {
  return new MetaWriter({
    metaPath: path.join(dir, metaFileName(sessionId)),
    sessionId,
    debounceMs,
    limited,
    onError,
  })
}

/**
 * A resumed session continues the counts of its sidecar when the sidecar describes exactly the transcript
 * being resumed (same last record). Otherwise the recorder writes no sidecar for this session, and
 * listSessions rebuilds it from the transcript when asked: a wrong count is worse than a recomputed one.
 * Returns the read of the sidecar still under way (close() waits for it so the last sidecar write is not
 * lost), or null when there is nothing to read.
 */
export function loadMetaBase(
  meta: MetaWriter,
  dir: string,
  sessionId: string,
  transcriptExists: boolean,
  lastUuid: string | null,
): Promise<void> | null {
  if (!transcriptExists) {
    meta.setBase(FRESH_META_BASE)
    return null
  }
  return readMeta(path.join(dir, metaFileName(sessionId)), sessionId).then(
    (found) =>
      meta.setBase(
        typeof found !== 'string' && found.lastUuid === lastUuid
          ? { createdAt: found.createdAt, recordCount: found.recordCount, title: found.title }
          : null,
      ),
    () => meta.setBase(null),
  )
}
