import type { SessionRecord } from '../format/record-format.js'
import { overlongLineProblem, parseLine, tornTailProblem, type LineSink } from '../format/parse-line.js'
import type { ReadProblem } from '../format/problem.js'
import type { RecoveredTornLine } from '../format/recovered-line.js'
import { tornRangeOf } from '../format/recovered-marker.js'

/** Parses one complete line into `sink` (records and problems); returns the number of records. */
export type LineParser = (text: string, line: number, sink: LineSink) => number

/** One line of the file, classified. `payload` is whatever the caller attached to it (repair: its bytes). */
export interface ClassifiedLine<P> {
  readonly line: number
  readonly offset: number
  /** Bytes in the line, without its newline. */
  readonly length: number
  readonly payload: P
  /** Valid records on the line, in order. */
  readonly records: readonly SessionRecord[]
  /** Damage on the line (empty for a clean line and for a recovered one). */
  readonly problems: readonly ReadProblem[]
  /** Set when the line is torn bytes that a later `recovered` record names: not damage. */
  readonly recovered?: RecoveredTornLine
  /**
   * Lines of another tool's transcript that are not records (Claude Code's `summary` or
   * `file-history-snapshot`, Gemini's header and `$set`…), as parsed: metadata, not damage.
   */
  readonly metadata?: readonly Record<string, unknown>[]
  /**
   * Messages a replay took out of the conversation that carry token counts (Gemini CLI: `$rewindTo`, or a
   * checkpoint without them), as their `id`, `type`, `timestamp`, `model` and `tokens`: neither records nor
   * metadata of the line, but model requests that were made (see `ReadResult.takenBack`).
   */
  readonly takenBack?: readonly Record<string, unknown>[]
  /** The file the line is in, when the session spans several files (format/segments.ts). */
  readonly file?: string
}

/**
 * How many damaged lines are held while waiting to see whether a `recovered` record names them. A crash
 * tears at most the few lines of one write (a NUL run, a partial line); more than this since the last
 * record is damage whatever follows, and holding it would make the reader's memory depend on the input.
 */
export const MAX_HELD_LINES = 64
/** Bytes of held payload (repair holds each damaged line's bytes) past which held lines are let go as damage. */
export const MAX_HELD_PAYLOAD_BYTES = 64 * 1024 * 1024

/** Bytes after the last newline of a file. */
export interface FileTail {
  readonly text: string
  readonly line: number
  readonly offset: number
  readonly length: number
  /** Over the reader's line limit: skipped unread, `text` is empty. */
  readonly overlong: boolean
}

interface Held<P> {
  readonly line: number
  readonly offset: number
  readonly length: number
  readonly payload: P
  readonly problems: ReadProblem[]
}

/**
 * Classifies the lines of a transcript in file order, for every reader (readSession, streamRecords,
 * verify, show, tail, repair): clean lines, damaged lines, and damaged lines that a later `recovered`
 * record explains. Sans-I/O: the caller reads the bytes and feeds complete lines; classified lines come
 * out through `emit`, in file order. A damaged line is held (bounded) until the next record shows whether
 * it is recovered: the `recovered` record a resumed writer appends names the torn range by byte offset,
 * and the range must match exactly — start where the last record's line ended, end where the marker
 * begins (or one byte earlier: the newline the writer appended), and hold every line held since.
 */
export class TornLineTracker<P = undefined> {
  readonly #emit: (line: ClassifiedLine<P>) => void
  #held: Held<P>[] = []
  #heldPayloadBytes = 0
  // True when held lines had to be let go since the last record: the next marker cannot match any more.
  #overflowed = false
  // Byte offset just past the newline of the last line that held a record: where a torn range must start.
  #lastGoodEnd: number
  // Reused per line so the hot path allocates nothing for clean lines.
  #records: SessionRecord[] = []
  #problems: ReadProblem[] = []
  #metadata: Record<string, unknown>[] = []
  readonly #collector: LineSink = {
    record: (record) => this.#records.push(record),
    problem: (problem) => this.#problems.push(problem),
    metadata: (value) => this.#metadata.push(value),
  }

  // How one line becomes records and problems: this format's parser, or another format's (a profile for
  // other tools' transcripts plugs in here without touching the classification around it).
  readonly #parse: LineParser
  // Other tools' writers do not end the file with a newline (claude-code-log's files, Gemini's legacy
  // document): there a last line that parses whole is a record, not a write that was cut off.
  readonly #completeTail: boolean

  /**
   * `completeTail`: the bytes after the last newline are read as a line when they parse cleanly
   * (other tools' files); otherwise they are always a torn tail (ours: every record ends in a newline).
   */
  constructor(
    emit: (line: ClassifiedLine<P>) => void,
    startOffset = 0,
    parse: LineParser = parseLine,
    completeTail = false,
  ) {
    this.#emit = emit
    this.#lastGoodEnd = startOffset
    this.#parse = parse
    this.#completeTail = completeTail
  }

  /** A complete line (its text without the newline) that starts at byte `offset` and is `length` bytes long. */
  line(text: string, line: number, offset: number, length: number, payload: P): void {
    this.#parse(text, line, this.#collector)
    this.#classified(line, offset, length, payload)
  }

  #classified(line: number, offset: number, length: number, payload: P): void {
    const records = this.#records
    const problems = this.#problems
    const metadata = this.#metadata
    if (records.length === 0 && problems.length === 0 && metadata.length === 0) return
    if (records.length > 0) this.#records = []
    if (problems.length > 0) this.#problems = []
    const located = problems.map((problem) => withOffset(problem, offset))
    if (metadata.length > 0) {
      // Another tool's metadata line: not a record (no torn range can end at it), not damage. Held lines
      // before it go out first, as damage: only our `recovered` record explains torn bytes.
      this.#metadata = []
      this.#release(undefined)
      // `records` is the reused collector unless it held something (then it was swapped out above).
      this.#emit({
        line,
        offset,
        length,
        payload,
        records: records.length > 0 ? records : [],
        problems: located,
        metadata,
      })
      if (records.length > 0) this.#lastGoodEnd = offset + length + 1
      return
    }
    if (records.length === 0) {
      this.#hold({ line, offset, length, payload, problems: located }, payload !== undefined)
      return
    }
    const range = tornRangeOf(records[0]!)
    this.#release(range === undefined ? undefined : { ...range, at: offset, uuid: records[0]!.uuid })
    this.#emit({ line, offset, length, payload, records, problems: located })
    this.#lastGoodEnd = offset + length + 1
    this.#overflowed = false
  }

  /** A complete line over the reader's limit, skipped unread. */
  overlong(line: number, offset: number, length: number, payload: P): void {
    const problem = overlongLineProblem(line, length, true, offset)
    this.#hold({ line, offset, length, payload, problems: [problem] }, false)
  }

  /**
   * The end of the file: lets go of every held line, then reports the bytes after the last newline, if
   * any (`tail.overlong`: too long to read, so `text` is empty).
   */
  end(tail?: FileTail, payload?: P): void {
    if (tail !== undefined && this.#completeTail && !tail.overlong && this.#wholeTail(tail, payload)) {
      this.#release(undefined)
      return
    }
    this.#release(undefined)
    if (tail === undefined) return
    const problem = tail.overlong
      ? overlongLineProblem(tail.line, tail.length, false, tail.offset)
      : tornTailProblem(tail.text, tail.line, tail.offset)
    this.#emit({
      line: tail.line,
      offset: tail.offset,
      length: tail.length,
      payload: payload as P,
      records: [],
      problems: [problem],
    })
  }

  /** Reads an unterminated last line as a line if it parses cleanly; false (nothing emitted) otherwise. */
  #wholeTail(tail: FileTail, payload: P | undefined): boolean {
    this.#parse(tail.text, tail.line, this.#collector)
    const clean = this.#problems.length === 0 && (this.#records.length > 0 || this.#metadata.length > 0)
    if (!clean) {
      this.#records = []
      this.#problems = []
      this.#metadata = []
      return false
    }
    this.#classified(tail.line, tail.offset, tail.length, payload as P)
    return true
  }

  /** Emits the held lines now, without waiting for a record (a follower that has caught up and stops). */
  flush(): void {
    this.#release(undefined)
  }

  #hold(held: Held<P>, countPayload: boolean): void {
    this.#held.push(held)
    if (countPayload) this.#heldPayloadBytes += held.length
    if (this.#held.length > MAX_HELD_LINES || this.#heldPayloadBytes > MAX_HELD_PAYLOAD_BYTES) {
      this.#release(undefined)
      this.#overflowed = true
    }
  }

  /** Emits the held lines: as recovered when `marker` names exactly their range, else as damage. */
  #release(marker: { offset: number; length: number; at: number; uuid: string } | undefined): void {
    const held = this.#held
    if (held.length === 0) return
    this.#held = []
    this.#heldPayloadBytes = 0
    const end = marker === undefined ? 0 : marker.offset + marker.length
    const matches =
      marker !== undefined &&
      !this.#overflowed &&
      marker.offset === this.#lastGoodEnd &&
      (marker.at === end || marker.at === end + 1) &&
      held.every((h) => h.offset >= marker.offset && h.offset + h.length <= end)
    for (const h of held) {
      if (!matches) {
        this.#emit({ ...h, records: [] })
        continue
      }
      const kinds = [...new Set(h.problems.map((p) => p.kind))]
      this.#emit({
        line: h.line,
        offset: h.offset,
        length: h.length,
        payload: h.payload,
        records: [],
        problems: [],
        recovered: {
          line: h.line,
          offset: h.offset,
          length: h.length,
          kinds,
          recoveredBy: marker.uuid,
          detail: `${h.length} torn byte(s) (${kinds.join(', ')}) left in place by a crash; the \`recovered\` record ${JSON.stringify(marker.uuid)} names bytes ${marker.offset}–${end}`,
        },
      })
    }
  }
}

function withOffset(problem: ReadProblem, offset: number): ReadProblem {
  return { line: problem.line, offset, kind: problem.kind, detail: problem.detail }
}
