/**
 * One session as a live page shows it, followed. The first read sends the turns as they are built, in
 * messages of a read chunk's worth, so a long session fills the page progressively; every later read starts
 * where the last one stopped (the catalog's readEvents: only appended lines are read) and sends the turn
 * that was still open plus the new ones. Gemini's files, which are rewritten rather than appended to, are
 * read whole again and only turns that differ from what the page has are sent.
 *
 * The file read from where the last read stopped is held open (followed-file.ts) and read through its
 * descriptor; before anything read goes out, the file is checked to be the same one, no shorter than where
 * reading had got to, with the same first bytes. When it is not (truncated, renamed over, rewritten), the
 * page is told (`reset`) and the file at the path is read from its start: what the page shows is never
 * part one file, part another. Segments: a session of ours kept in several files (`<id>.jsonl` then
 * `<id>~<n>.jsonl`, recorder/src/format/segments.ts) is read whole across them the first time (the recorder's
 * reader stitches them, a carried record once), then followed in its last file. When the session gains a
 * file (the recorder went on in a new segment) or loses one, the page is told (`reset`, `continued`) and the
 * session is read again from its first file: following it into its next file, never mixing it with another.
 *
 * Pacing: after each chunk of lines, what was built goes out and the read waits until the page's stream has
 * drained (`drained()`): a page that reads slowly slows its read, and a page's stream never holds more than
 * about one message (the server drops a page that does not drain, see event-stream.ts).
 *
 * Branch marks: turns are sent as they are read, before the branch is known, so they go out marked "on the
 * branch"; once a read ends, the active branch is computed from the records' links (the export's walk) and
 * the page is told which records' marks flip. An append that only extends the branch (every new record's
 * parent is the record before it) changes no mark and skips the walk.
 *
 * Memory: the open turn, the turns of one chunk, the links of the records (a few dozen bytes each) and the
 * records off the branch; never the session's turns (Gemini's documents, read whole, excepted).
 */
import { stat } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import type { FormatOption, SessionRecord, TranscriptFormat } from '@sessiontape/recorder'
import { isLeafCandidate, linkParentOf, resolveFormat, sessionFiles } from '@sessiontape/recorder/internal'
import { canReadTail, readEvents, type ReadPoint } from '../catalog/read-events.js'
import { BranchLinks, recordOf } from '../export/branch-pass.js'
import { pageMeta, turnBuilder } from '../export/render.js'
import type { Turn } from '../export/turns.js'
import type { TurnBuilder } from '../export/turns.js'
import { FollowedFile, lastLineOpen, type FileChange } from './followed-file.js'

/** What a live page is sent. */
export interface LiveMessages {
  /** Turns from index `from` replace the page's (and extend it); `length`, when given, is the new count. */
  turns(message: {
    from: number
    turns: readonly Turn[]
    length?: number
    meta?: Record<string, unknown>
  }): void
  /** Records whose events' marks flip: now off the active branch, or back on it. */
  branch(message: { off: readonly string[]; on: readonly string[] }): void
  /** Whether the last line is still being written. */
  pending(pending: boolean): void
  /** The file changed under the page: it drops every turn it shows; the file's turns from 0 follow. */
  reset(message: { reason: FileChange }): void
  /** Settles once the page has taken what was sent; awaited between chunks of a read. */
  drained(): Promise<void> | undefined
}

/** Turns per message while a session is first read: the page renders each message as it comes. */
const BATCH_TURNS = 250
/** Turns in the first message of a read from the start. */
const FIRST_MESSAGE_TURNS = 50
/** Bytes of turns (as JSON) past which a message goes out whatever its count: one message stays small. */
const BATCH_BYTES = 512 * 1024

/** Restarts within one update when the file keeps changing under the read; the next poll tries again. */
const MAX_RESTARTS = 3

/** Thrown from a read's pace when the file changed under it: the read ends, the session starts over. */
class FileChanged extends Error {
  readonly change: FileChange
  constructor(change: FileChange) {
    super(`the followed file was ${change}`)
    this.change = change
  }
}

export class LiveSession {
  readonly #path: string
  readonly #format: FormatOption
  readonly #send: LiveMessages
  /** The tag of the file the page was built from (followed-file.ts); a different file is a reset at once. */
  readonly #pageTag: string | undefined
  #resolved: TranscriptFormat | undefined
  /** Appended to only: read from where the last read stopped. False: read whole each time (Gemini). */
  #tail = false
  /** The file read from where the last read stopped (tail mode): the session's last file. */
  #file: FollowedFile | undefined
  /** Every file of the session as last found (one, unless it is ours and kept in segments). */
  #files: readonly string[] = []
  /** Where the next read starts (tail mode). */
  #point: ReadPoint | undefined
  /** What the path's stat said last time: an unchanged one skips the poll. */
  #lastSeen = ''
  #builder: TurnBuilder
  #links = new BranchLinks()
  /** Records the page shows as off the active branch. */
  #shownOff = new Set<string>()
  /** The last leaf candidate read: an append whose records chain on from it keeps the branch as it was. */
  #leaf: string | null = null
  /** A read found records that do not simply extend the branch: the walk must run. */
  #branchMoved = false
  /** Complete turns sent so far (tail mode); the open turn comes after them. */
  #sentComplete = 0
  /** The open turn as last sent (JSON), to send it again only when it changed. */
  #sentOpen: string | undefined
  /** Whole-file mode: a digest of each turn the page has, to send only those that changed. */
  #sentDigests: string[] = []
  #problems = 0
  #lastPending: boolean | undefined

  constructor(file: string, format: FormatOption, send: LiveMessages, pageTag?: string) {
    this.#path = file
    this.#format = format
    this.#send = send
    this.#pageTag = pageTag
    this.#builder = this.#newBuilder()
  }

  #newBuilder(): TurnBuilder {
    // Events are marked with what the page shows; a read's end corrects the marks that moved.
    return turnBuilder({
      activeOnly: false,
      onBranch: (event) => !this.#shownOff.has(recordOf(event.id)),
    })
  }

  /** Reads what changed when the path's stat says something did (size, times, identity). */
  async poll(signal?: AbortSignal): Promise<void> {
    const files = await this.#sessionFiles()
    const info = await stat(files.at(-1)!, { bigint: true })
    const seen = `${files.join('\n')}:${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
    if (seen === this.#lastSeen) return
    await this.update(signal)
    // Only once the read went through: a failed one is tried again at the next poll.
    this.#lastSeen = seen
  }

  /** Reads what is new and sends what changed. */
  async update(signal?: AbortSignal): Promise<void> {
    if (this.#resolved === undefined) {
      this.#resolved = await resolveFormat(this.#path, this.#format)
      this.#tail = canReadTail(this.#resolved) && !this.#path.endsWith('.zst')
    }
    if (!this.#tail) {
      const pending = await this.#readWhole(signal)
      this.#sendBranch()
      this.#sendPending(pending)
      return
    }
    if (this.#file === undefined) {
      this.#files = await this.#sessionFiles()
      this.#file = await FollowedFile.open(this.#files.at(-1)!)
      if (this.#pageTag !== undefined && !this.#file.matches(this.#pageTag) && this.#files.length === 1)
        this.#send.reset({ reason: 'replaced' })
    }
    for (let restarts = 0; ; restarts++) {
      try {
        const files = await this.#sessionFiles()
        if (files.join('\n') !== this.#files.join('\n')) throw new FileChanged('continued')
        const change = await this.#file.change(this.#point?.offset ?? 0)
        if (change !== undefined) throw new FileChanged(change)
        await this.#readTail(this.#file, signal)
        break
      } catch (error) {
        if (!(error instanceof FileChanged) || restarts >= MAX_RESTARTS) throw error
        await this.#restart(error.change)
      }
    }
    this.#sendBranch()
    this.#sendPending(this.#point !== undefined && (await this.#file.size()) > this.#point.offset)
  }

  /** Closes the held file. */
  async close(): Promise<void> {
    await this.#file?.close()
    this.#file = undefined
  }

  /** The file changed under the page: it is told, and the file at the path is read from its start. */
  async #restart(reason: FileChange): Promise<void> {
    await this.#file?.close()
    this.#files = await this.#sessionFiles()
    this.#file = await FollowedFile.open(this.#files.at(-1)!)
    this.#point = undefined
    this.#builder = this.#newBuilder()
    this.#links = new BranchLinks()
    this.#shownOff = new Set()
    this.#leaf = null
    this.#branchMoved = false
    this.#sentComplete = 0
    this.#sentOpen = undefined
    this.#problems = 0
    this.#send.reset({ reason })
  }

  /** The session's files, in order: its segments too when it is ours (one stat-free look at the directory). */
  async #sessionFiles(): Promise<readonly string[]> {
    if (this.#resolved !== 'sessiontape') return [this.#path]
    return (await sessionFiles(this.#path)).map((file) => file.path)
  }

  /** Turns in the next message: the first is small (it replaces the turns the page came with at once). */
  #messageTurns(): number {
    return this.#sentComplete === 0 ? FIRST_MESSAGE_TURNS : BATCH_TURNS
  }

  #sendPending(pending: boolean): void {
    if (pending !== this.#lastPending) this.#send.pending(pending)
    this.#lastPending = pending
  }

  #meta(): Record<string, unknown> {
    const meta = pageMeta(this.#builder.facts, this.#builder.total, {
      file: this.#path,
      problems: this.#problems,
    })
    // The page reads `live` as "followed" from here on (its stream URL came with the page).
    return { ...meta, live: true }
  }

  async #readTail(file: FollowedFile, signal: AbortSignal | undefined): Promise<void> {
    const from = this.#point?.offset ?? 0
    let batch: Turn[] = []
    let batchBytes = 0
    // Nothing read goes out before the file was checked to be the same one after the read.
    const checked = async (): Promise<void> => {
      const change = await file.change(from)
      if (change !== undefined) throw new FileChanged(change)
    }
    const flush = (): void => {
      for (let at = 0; at < batch.length;) {
        const turns = batch.slice(at, at + this.#messageTurns())
        this.#send.turns({ from: this.#sentComplete, turns })
        this.#sentComplete += turns.length
        at += turns.length
      }
      batch = []
      batchBytes = 0
      this.#sentOpen = undefined
    }
    // A session in segments is read whole the first time, by its first file (the recorder's reader stitches
    // them, a carried record once): the point it returns is in the last file, which is followed from there.
    const segments = this.#point === undefined && this.#files.length > 1 ? this.#files.slice(1) : undefined
    const point = await readEvents(
      segments === undefined ? file.readPath : this.#files[0]!,
      this.#resolved!,
      this.#point,
      {
        event: (event) => {
          const done = this.#builder.push(event)
          if (done === undefined) return
          batch.push(done)
          batchBytes += JSON.stringify(done).length
        },
        record: (_uuid, record) => this.#addLink(record),
        problem: () => void this.#problems++,
        pace: async () => {
          if (batch.length < this.#messageTurns() && batchBytes < BATCH_BYTES) return
          await checked()
          flush()
          await this.#send.drained()
        },
      },
      signal,
      segments,
    )
    await checked()
    this.#point = point
    const open = this.#builder.open
    const openJson = open === undefined ? undefined : JSON.stringify(open)
    const turns = openJson === this.#sentOpen || open === undefined ? batch : [...batch, open]
    const length = this.#sentComplete + batch.length + (open === undefined ? 0 : 1)
    // A read from the start says how many turns there are: the page drops any it came with beyond them.
    this.#send.turns({
      from: this.#sentComplete,
      turns,
      meta: this.#meta(),
      ...(from === 0 ? { length } : {}),
    })
    this.#sentComplete += batch.length
    this.#sentOpen = openJson
  }

  /** Reads the whole file; returns whether its last line is still being written. */
  async #readWhole(signal: AbortSignal | undefined): Promise<boolean> {
    this.#builder = this.#newBuilder()
    this.#links = new BranchLinks()
    this.#leaf = null
    this.#problems = 0
    this.#branchMoved = true
    const turns: Turn[] = []
    await readEvents(
      this.#path,
      this.#resolved!,
      undefined,
      {
        event: (event) => {
          const done = this.#builder.push(event)
          if (done !== undefined) turns.push(done)
        },
        record: (_uuid, record) => this.#addLink(record),
        problem: () => void this.#problems++,
      },
      signal,
    )
    const last = this.#builder.open
    if (last !== undefined) turns.push(last)
    const digests = turns.map((turn) => createHash('sha1').update(JSON.stringify(turn)).digest('base64'))
    let from = 0
    while (from < digests.length && digests[from] === this.#sentDigests[from]) from++
    if (from < digests.length || digests.length !== this.#sentDigests.length || from === 0) {
      this.#send.turns({ from, turns: turns.slice(from), length: turns.length, meta: this.#meta() })
    }
    this.#sentDigests = digests
    return lastLineOpen(this.#path)
  }
  #addLink(record: SessionRecord): void {
    this.#links.add(record)
    if (record.uuid === '' || !isLeafCandidate(record)) {
      // A sidechain, a title or a recovered record is on no branch walk unless a later record says so.
      if (record.uuid !== '') this.#branchMoved = true
      return
    }
    if (linkParentOf(record) !== this.#leaf && this.#leaf !== null) this.#branchMoved = true
    this.#leaf = record.uuid
  }

  /** Tells the page which records moved on or off the active branch since the last time. */
  #sendBranch(): void {
    if (!this.#branchMoved) return
    this.#branchMoved = false
    const off = this.#links.offBranch(true)
    const nowOff = [...off].filter((uuid) => !this.#shownOff.has(uuid))
    const nowOn = [...this.#shownOff].filter((uuid) => !off.has(uuid))
    this.#shownOff = off
    if (nowOff.length > 0 || nowOn.length > 0) this.#send.branch({ off: nowOff, on: nowOn })
  }
}
