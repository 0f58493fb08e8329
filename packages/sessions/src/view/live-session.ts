/**
 * One session as a live page shows it, followed. The first read sends the turns as they are built, in
 * batches, so a long session fills the page progressively; every later read starts where the last one
 * stopped (the catalog's readEvents: only appended lines are read) and sends the turn that was still open
 * plus the new ones. Gemini's files, which are rewritten rather than appended to, are read whole again and
 * only turns that differ from what the page has are sent.
 *
 * Branch marks: turns are sent as they are read, before the branch is known, so they go out marked "on the
 * branch"; once a read ends, the active branch is computed from the records' links (the export's walk) and
 * the page is told which records' marks flip. An append that only extends the branch (every new record's
 * parent is the record before it) changes no mark and skips the walk.
 *
 * Memory: the open turn, the links of the records (a few dozen bytes each) and the records off the branch;
 * never the session's turns.
 */
import { open, stat } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import type { FormatOption, SessionRecord, TranscriptFormat } from '@sessiontape/recorder'
import { isLeafCandidate, linkParentOf, resolveFormat } from '@sessiontape/recorder/internal'
import { canReadTail, readEvents, type ReadPoint } from '../catalog/read-events.js'
import { BranchLinks, recordOf } from '../export/branch-pass.js'
import { pageMeta, turnBuilder } from '../export/render.js'
import type { Turn } from '../export/turns.js'
import type { TurnBuilder } from '../export/turns.js'

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
}

/** Turns per message while a session is first read: the page renders each batch as it comes. */
const BATCH_TURNS = 250

export class LiveSession {
  readonly #file: string
  readonly #format: FormatOption
  readonly #send: LiveMessages
  #resolved: TranscriptFormat | undefined
  /** Appended to only: read from where the last read stopped. False: read whole each time (Gemini). */
  #tail = false
  /** Where the next read starts (tail mode). */
  #point: ReadPoint | undefined
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

  constructor(file: string, format: FormatOption, send: LiveMessages) {
    this.#file = file
    this.#format = format
    this.#send = send
    this.#builder = this.#newBuilder()
  }

  #newBuilder(): TurnBuilder {
    // Events are marked with what the page shows; a read's end corrects the marks that moved.
    return turnBuilder({
      activeOnly: false,
      onBranch: (event) => !this.#shownOff.has(recordOf(event.id)),
    })
  }

  /** Reads what is new and sends what changed. */
  async update(signal?: AbortSignal): Promise<void> {
    if (this.#resolved === undefined) {
      this.#resolved = await resolveFormat(this.#file, this.#format)
      this.#tail = canReadTail(this.#resolved) && !this.#file.endsWith('.zst')
    }
    const { size } = await stat(this.#file)
    if (this.#tail) await this.#readTail(signal)
    else await this.#readWhole(signal)
    this.#sendBranch()
    const pending = this.#tail
      ? this.#point !== undefined && size > this.#point.offset
      : await lastLineOpen(this.#file)
    if (pending !== this.#lastPending) this.#send.pending(pending)
    this.#lastPending = pending
  }

  #meta(): Record<string, unknown> {
    const meta = pageMeta(this.#builder.facts, this.#builder.total, {
      file: this.#file,
      problems: this.#problems,
    })
    // The page reads `live` as "followed" from here on (its stream URL came with the page).
    return { ...meta, live: true }
  }

  async #readTail(signal: AbortSignal | undefined): Promise<void> {
    let batch: Turn[] = []
    const flush = (): void => {
      if (batch.length === 0) return
      this.#send.turns({ from: this.#sentComplete, turns: batch })
      this.#sentComplete += batch.length
      batch = []
      this.#sentOpen = undefined
    }
    this.#point = await readEvents(
      this.#file,
      this.#resolved!,
      this.#point,
      {
        event: (event) => {
          const done = this.#builder.push(event)
          if (done === undefined) return
          batch.push(done)
          // The first batch is small: it replaces the turns the page came with and shows the read is on.
          if (batch.length >= (this.#sentComplete === 0 ? 50 : BATCH_TURNS)) flush()
        },
        record: (_uuid, record) => this.#addLink(record),
        problem: () => void this.#problems++,
      },
      signal,
    )
    const open = this.#builder.open
    const openJson = open === undefined ? undefined : JSON.stringify(open)
    const turns = openJson === this.#sentOpen || open === undefined ? batch : [...batch, open]
    this.#send.turns({ from: this.#sentComplete, turns, meta: this.#meta() })
    this.#sentComplete += batch.length
    this.#sentOpen = openJson
  }

  async #readWhole(signal: AbortSignal | undefined): Promise<void> {
    this.#builder = this.#newBuilder()
    this.#links = new BranchLinks()
    this.#leaf = null
    this.#problems = 0
    this.#branchMoved = true
    const turns: Turn[] = []
    await readEvents(
      this.#file,
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

/** Whether a file's last byte is not a newline (a write in progress); a Gemini JSON document never is. */
async function lastLineOpen(file: string): Promise<boolean> {
  if (file.endsWith('.json')) return false
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    if (size === 0) return false
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } finally {
    await handle.close()
  }
}
