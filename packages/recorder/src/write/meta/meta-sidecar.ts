import { type MetaBase, MetaWriter } from './meta-writer.js'
import { findMeta } from '../../format/meta-file.js'
import { metaPathOf, sidecarDirOf } from '../../format/record-format.js'
import { ensureSidecarDir } from '../../format/sidecar-dir.js'
import type { RecorderFs } from '../../util/recorder-fs.js'
import { limited } from '../../util/write-limiter.js'
import type { WatermarkView } from '../loop/watermarks.js'

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

/** What {@link SessionSidecar} needs to know about the session it describes. */
export interface SessionSidecarSettings {
  readonly dir: string
  readonly sessionId: string
  readonly debounceMs: number
  readonly onError: (error: unknown) => void
  /** The fs to fsync the sidecar directory with after a rename; null when `fsync` is `'never'`. */
  readonly durableFs: RecorderFs | null
  /** A resumed session: whether its transcript existed and the record it ended with. Null: a fresh one. */
  readonly resumed: { readonly exists: boolean; readonly lastUuid: string | null } | null
}

/**
 * The meta sidecar of one recorder: the one owner of everything the sidecar says. It starts from the
 * resumed sidecar's counts (or a fresh base), notes titles as they are recorded, and follows the persisted
 * watermark itself, so the facade only tells it what happened.
 */
export class SessionSidecar {
  readonly #writer: MetaWriter
  // A resumed session's sidecar being read; close() waits for it so the last sidecar write is not lost.
  readonly #baseLoading: Promise<void> | null
  // The persisted count the sidecar was last told about: nothing to write while it has not moved.
  #count = 0

  constructor(settings: SessionSidecarSettings) {
    const { dir, sessionId, resumed } = settings
    this.#writer = createMetaWriter(dir, sessionId, settings.debounceMs, settings.onError, settings.durableFs)
    if (resumed === null) {
      this.#writer.setBase(FRESH_META_BASE)
      this.#baseLoading = null
    } else {
      this.#baseLoading = loadMetaBase(this.#writer, dir, sessionId, resumed.exists, resumed.lastUuid)
    }
  }

  /** A `title` record was accepted: the sidecar names the session after it. */
  noteTitle(data: object | undefined): void {
    try {
      const title = (data as { title?: unknown } | undefined)?.title
      if (typeof title === 'string') this.#writer.setTitle(title)
    } catch {
      // The record itself was serialized; a getter that throws on a second read only costs the sidecar title.
    }
  }

  /** The persisted watermark may have moved. */
  follow(marks: WatermarkView): void {
    const persisted = marks.persisted
    if (persisted.count === this.#count) return
    this.#count = persisted.count
    this.#writer.persisted(persisted.count, persisted.uuid, marks.firstWrittenAt, marks.lastWrittenAt)
  }

  flushSync(): void {
    this.#writer.flushSync()
  }

  /** Writes what is pending, once a resumed base has been read. */
  async flush(): Promise<void> {
    if (this.#baseLoading !== null) await this.#baseLoading
    await this.#writer.flush()
  }

  stop(): void {
    this.#writer.stop()
  }
}
