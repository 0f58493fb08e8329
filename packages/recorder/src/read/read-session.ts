import type { SessionRecord } from '../format/record-format.js'
import { classifiedLines } from './classified-lines.js'
import { checkSignal } from '../util/describe-value.js'
import type { MetadataLine } from './formats/metadata-line.js'
import { linkParentOf } from './formats/record-links.js'
import { resolveFormat } from './formats/resolve-format.js'
import {
  checkFormat,
  isForeignFormat,
  type FormatOption,
  type TranscriptFormat,
} from './formats/transcript-format.js'
import { LinkIndex, type EarlierSessionLink } from './link-index.js'
import type { ReadProblem } from '../format/problem.js'
import type { RecoveredTornLine } from '../format/recovered-line.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

export interface ReadSessionResult {
  /** The format the file was read as (recognised from its content unless `format` was given). */
  readonly format: TranscriptFormat
  /**
   * The files read, in order. One, unless the session is kept in several: segments of ours (the session's
   * path, then `<sessionId>~<n>.jsonl`, see the README's "Segments"), or a Codex thread's rollouts. A record
   * is in `records` once even when a later file carried it again. `lines[i]` and a problem's `line` count in
   * the file the line is in (a problem names it in `file` when there are several).
   */
  readonly files: readonly string[]
  /**
   * Every valid record, in file order, unknown `type`s included (Gemini: the messages left after the
   * replay, in conversation order). A record of another tool keeps every field it has; a missing
   * envelope field is filled in (`parentUuid` null, `sessionId`, `timestamp`, `type` ''), and a Gemini
   * message gets `uuid` (its `id`), `parentUuid` (the message before it) and `sessionId`. Only records of
   * this package's format carry the format version `v`.
   */
  readonly records: SessionRecord[]
  /** `lines[i]` is the 1-based line number `records[i]` was read from. */
  readonly lines: number[]
  /** Everything that was wrong, sorted by line; never thrown, never skipped silently. */
  readonly problems: ReadProblem[]
  /**
   * Torn lines a later `recovered` record of the file names (a crash, explained by the resumed writer):
   * not damage, so not in `problems`. Sorted by line.
   */
  readonly recovered: RecoveredTornLine[]
  /**
   * Lines of another tool's format that are not records, as parsed (Claude Code's `summary`,
   * `custom-title`, `file-history-snapshot`…; Gemini's header, `$set`, `$patch`, `$rewindTo`): not
   * damage. Empty for this package's format.
   */
  readonly metadata: MetadataLine[]
  /**
   * Gemini CLI: the messages with token counts that a `$rewindTo` (or a `$set.messages` checkpoint without
   * them) took out of the conversation, each in its last state, as `{ id, type?, timestamp?, model?, tokens }`
   * at the line that last wrote it, sorted by line: not in `records`, but their model requests were made,
   * so a usage total counts them. Empty for every other format.
   */
  readonly takenBack: MetadataLine[]
  /**
   * Other agents' transcripts: the record whose parent is in an earlier session file (a resumed Claude
   * Code session), reported here rather than as an `orphan`.
   */
  readonly earlierSession: EarlierSessionLink[]
  /** uuid of the last valid record (what a resumed session continues from), or null for none. */
  readonly lastUuid: string | null
}

export interface ReadSessionOptions {
  /** Stops the read between chunks; the promise then rejects with the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /**
   * The file's format; `'auto'` recognises it from its first lines (see the README: "Inspecting Claude
   * Code, Qwen Code and Gemini CLI sessions").
   * @default 'auto'
   */
  readonly format?: FormatOption
  /**
   * Lines longer than this many bytes are skipped unread and reported as a `too-long` problem, so a
   * reader's memory stays bounded whatever the file holds (the `sessiontape` CLI reads with 64 MiB).
   * @default the longest line a string can hold (~512 MiB)
   */
  readonly maxLineBytes?: number
}

/**
 * Reads a whole transcript tolerantly. Rejects only when the file cannot be read at all (missing, a
 * directory, no permission); damage inside the file becomes `problems`.
 */
export async function readSession(
  filePath: string,
  options: ReadSessionOptions = {},
): Promise<ReadSessionResult> {
  rejectUnknownOptions(options, ['signal', 'format', 'maxLineBytes'], 'readSession()')
  const signal = checkSignal(options?.signal)
  const format = await resolveFormat(filePath, checkFormat(options?.format))
  const records: SessionRecord[] = []
  const lines: number[] = []
  const problems: ReadProblem[] = []
  const recovered: RecoveredTornLine[] = []
  const metadata: MetadataLine[] = []
  const takenBack: MetadataLine[] = []
  const earlierSession: EarlierSessionLink[] = []
  const links = new LinkIndex(
    (problem) => problems.push(problem),
    isForeignFormat(format) ? (link) => earlierSession.push(link) : undefined,
  )
  let files: readonly string[] = [filePath]
  for await (const batch of classifiedLines(filePath, {
    signal,
    maxLineBytes: options?.maxLineBytes,
    format,
    onFiles: (read) => (files = read),
  })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) recovered.push(entry.recovered)
      for (const problem of entry.problems) problems.push(problem)
      if (entry.metadata !== undefined) {
        for (const value of entry.metadata) metadata.push({ line: entry.line, offset: entry.offset, value })
      }
      for (const value of entry.takenBack ?? [])
        takenBack.push({ line: entry.line, offset: entry.offset, value })
      for (const record of entry.records) {
        records.push(record)
        lines.push(entry.line)
        links.add(record.uuid, linkParentOf(record), entry.line)
      }
    }
  }
  links.finish()
  // Stable sort: on one line, reading problems come before link problems.
  problems.sort((a, b) => a.line - b.line)
  return {
    format,
    files,
    records,
    lines,
    problems,
    recovered,
    metadata,
    takenBack,
    earlierSession,
    lastUuid: records.at(-1)?.uuid ?? null,
  }
}
