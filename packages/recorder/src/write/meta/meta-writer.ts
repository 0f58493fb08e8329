import fs from 'node:fs'
import path from 'node:path'

import { FORMAT_VERSION, type SessionMeta } from '../../format/record-format.js'
import { writeFileAtomic, writeFileAtomicSync } from '../../util/atomic-file.js'
import type { RecorderFs } from '../../util/recorder-fs.js'

// Sidecars are as private as the transcripts they describe. With `fsync: 'never'` no fsync: the sidecar is
// an index that listSessions rebuilds from the transcript whenever it is missing, corrupt or older than the
// transcript. In a durable mode the temp file is fsynced before the rename and the directory after it, so
// the sidecar close() leaves behind survives a power cut as it is, never as an empty file under its name.
const META_OPTIONS = { mode: 0o600, fsync: false } as const
const DURABLE_META_OPTIONS = { mode: 0o600, fsync: true } as const

/** Where a session's counts start: a fresh session, or the sidecar of a resumed one. */
export interface MetaBase {
  readonly createdAt: string | null
  readonly recordCount: number
  readonly title: string | undefined
}

export interface MetaWriterSettings {
  readonly metaPath: string
  readonly sessionId: string
  readonly debounceMs: number
  /** Runs the (async) write under the recorder's process-wide file-system cap. */
  readonly limited: <T>(call: () => Promise<T>) => Promise<T>
  readonly onError: (error: unknown) => void
  /** In a durable fsync mode, the seam that fsyncs the sidecar's directory after each rename; else null. */
  readonly durableFs: RecorderFs | null
}

/**
 * Keeps `<sessionId>.meta.json` in step with the transcript, off the hot path: changes only mark it dirty,
 * and one debounced (unref()ed) timer writes the latest state atomically (temp file + rename). At most one
 * write is in flight; changes meanwhile are coalesced into the next.
 */
export class MetaWriter {
  readonly #s: MetaWriterSettings
  #base: MetaBase | null = null
  // Until the base is known (a resumed session's sidecar is read asynchronously) nothing is written.
  #baseKnown = false
  #persisted = 0
  #lastUuid: string | null = null
  #firstTimestamp: string | null = null
  #lastTimestamp: string | null = null
  #title: string | undefined
  #dirty = false
  #timer: NodeJS.Timeout | null = null
  #writing: Promise<void> | null = null
  #disabled = false

  constructor(settings: MetaWriterSettings) {
    this.#s = settings
  }

  /** The counts to continue from; `null` = unknown (an unusable sidecar): this writer then stays silent. */
  setBase(base: MetaBase | null): void {
    this.#baseKnown = true
    this.#base = base
    if (base === null) {
      this.#disabled = true
      return
    }
    this.#title ??= base.title
    if (this.#dirty) this.#arm()
  }

  /** A title record was accepted. */
  setTitle(title: string): void {
    this.#title = title
  }

  /** New records reached the transcript. */
  persisted(
    count: number,
    lastUuid: string | null,
    firstTimestamp: string | null,
    lastTimestamp: string | null,
  ): void {
    if (this.#disabled) return
    this.#persisted = count
    this.#lastUuid = lastUuid
    this.#firstTimestamp ??= firstTimestamp
    if (lastTimestamp !== null) this.#lastTimestamp = lastTimestamp
    this.#dirty = true
    this.#arm()
  }

  /** Writes the latest state now (close()). */
  async flush(): Promise<void> {
    // Until quiet: a write that finishes may re-arm the timer, and that timer may start another write. One
    // write of our own at most: a sidecar that cannot be written must not hold close() forever.
    let attempted = false
    for (;;) {
      if (this.#timer !== null) clearTimeout(this.#timer)
      this.#timer = null
      if (this.#writing !== null) await this.#writing
      else if (this.#dirty && !attempted) {
        attempted = true
        await this.#write()
      } else return
    }
  }

  /** Synchronous last write, for the exit drain. Never throws. */
  flushSync(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    const meta = this.#snapshot()
    if (meta === null || !this.#dirty) return
    try {
      if (isSymlink(this.#s.metaPath)) return
      writeFileAtomicSync(this.#s.metaPath, `${JSON.stringify(meta)}\n`, this.#options())
      this.#s.durableFs?.syncDirSync(path.dirname(this.#s.metaPath))
      this.#dirty = false
    } catch {
      // At exit a stale sidecar is harmless: listSessions rebuilds it from the transcript.
    }
  }

  /** No more writes after this (the recorder closed); a write in flight finishes. */
  stop(): void {
    this.#disabled = true
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }

  #arm(): void {
    if (this.#timer !== null || this.#writing !== null || !this.#baseKnown || this.#disabled) return
    this.#timer = setTimeout(() => {
      this.#timer = null
      void this.#write()
    }, this.#s.debounceMs)
    // The sidecar must never keep the process alive; close() and the exit drain write the last state.
    this.#timer.unref()
  }

  async #write(): Promise<void> {
    const meta = this.#snapshot()
    if (meta === null) return
    this.#dirty = false
    const writing = this.#s
      .limited(async () => {
        // A rename would replace a symlink, not follow it; still, a sidecar path that is a symlink was put
        // there by someone else, and is refused.
        const stats = await fs.promises.lstat(this.#s.metaPath).catch(() => null)
        if (stats?.isSymbolicLink())
          throw new Error(`${this.#s.metaPath} is a symbolic link; not following it`)
        await writeFileAtomic(this.#s.metaPath, `${JSON.stringify(meta)}\n`, this.#options())
        // The rename is atomic but not durable until its directory is fsynced.
        await this.#s.durableFs?.syncDir(path.dirname(this.#s.metaPath))
      })
      .catch((error: unknown) => {
        this.#dirty = true
        this.#s.onError(error)
      })
      .finally(() => {
        this.#writing = null
      })
    this.#writing = writing
    await writing
    // Changes that arrived during the write go out after the next debounce, not in a tight loop.
    if (this.#dirty) this.#arm()
  }

  #options(): typeof META_OPTIONS | typeof DURABLE_META_OPTIONS {
    return this.#s.durableFs === null ? META_OPTIONS : DURABLE_META_OPTIONS
  }

  #snapshot(): SessionMeta | null {
    const base = this.#base
    if (!this.#baseKnown || base === null) return null
    const createdAt = base.createdAt ?? this.#firstTimestamp
    const updatedAt = this.#lastTimestamp ?? createdAt
    if (createdAt === null || updatedAt === null) return null
    return {
      sessionId: this.#s.sessionId,
      createdAt,
      updatedAt,
      recordCount: base.recordCount + this.#persisted,
      lastUuid: this.#lastUuid,
      ...(this.#title === undefined ? {} : { title: this.#title }),
      v: FORMAT_VERSION,
    }
  }
}

function isSymlink(filePath: string): boolean {
  try {
    return fs.lstatSync(filePath).isSymbolicLink()
  } catch {
    return false
  }
}
