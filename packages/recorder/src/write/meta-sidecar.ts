import { type MetaBase, MetaWriter } from './meta-writer.js'
import { findMeta } from '../format/meta-file.js'
import { metaPathOf, sidecarDirOf } from '../format/record-format.js'
import { ensureSidecarDir } from '../format/sidecar-dir.js'
import type { RecorderFs } from '../util/recorder-fs.js'
import { limited } from '../util/write-limiter.js'

/** Where a fresh session's counts start. */
export const FRESH_META_BASE: MetaBase = { createdAt: null, recordCount: 0, title: undefined }

/**
 * The meta sidecar writer of one session, in the sidecar directory of `dir` (`<dir>/.sessiontape/`), where
 * a log shipper's glob for transcripts never reaches it. Each (debounced) write first makes sure that
 * directory exists: with `lock: false` nothing else makes it.
 */
export function createMetaWriter(
  dir: string,
  sessionId: string,
  debounceMs: number,
  onError: (error: unknown) => void,
  durableFs: RecorderFs | null = null,
): MetaWriter {
  return new MetaWriter({
    metaPath: metaPathOf(dir, sessionId),
    sessionId,
    debounceMs,
    limited: (call) => limited(() => ensureSidecarDir(sidecarDirOf(dir)).then(call)),
    onError,
    durableFs,
  })
}

/**
 * A resumed session continues the counts of its sidecar when the sidecar describes exactly the transcript
 * being resumed (same last record). Otherwise the recorder writes no sidecar for this session, and
 * listSessions rebuilds it from the transcript when asked: a wrong count is worse than a recomputed one.
 * A sidecar of the older layout (next to the transcript) is read when the sidecar directory has none; it is
 * never written, the counts continue in the sidecar directory. Returns the read of the sidecar still under
 * way (close() waits for it so the last sidecar write is not lost), or null when there is nothing to read.
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
  return findMeta(dir, sessionId).then(
    ({ meta: found }) =>
      meta.setBase(
        typeof found !== 'string' && found.lastUuid === lastUuid
          ? { createdAt: found.createdAt, recordCount: found.recordCount, title: found.title }
          : null,
      ),
    () => meta.setBase(null),
  )
}
