import type { SessionRecord } from '../format/record-format.js'
import { classifiedLines } from './classified-lines.js'
import { checkSignal, describeValue } from '../util/describe-value.js'
import type { MetadataLine } from './formats/metadata-line.js'
import { resolveFormat } from './formats/resolve-format.js'
import { checkFormat, type FormatOption, type TranscriptFormat } from './formats/transcript-format.js'
import type { ReadProblem } from '../format/problem.js'
import type { RecoveredTornLine } from '../format/recovered-line.js'
import { rejectUnknownOptions } from '../util/unknown-options.js'

export interface StreamRecordsOptions {
  /**
   * Called for every line-level problem (everything but `orphan`, `duplicate-uuid` and `cycle`, which
   * need the whole file: use `readSession` for those). Problems are never thrown. A damaged line is
   * reported once the next record (or the end of the file) shows it is not a torn line a `recovered`
   * record names.
   * @default undefined (problems are not reported)
   */
  readonly onProblem?: (problem: ReadProblem) => void
  /** Called for each torn line that a later `recovered` record names (not damage). @default undefined */
  readonly onRecovered?: (line: RecoveredTornLine) => void
  /**
   * Called for each line of another tool's format that is not a record (Claude Code's `summary`,
   * `custom-title`…, Gemini's header and `$set` lines): metadata, not a problem. @default undefined
   */
  readonly onMetadata?: (line: MetadataLine) => void
  /** Called once, before the first record, with the format the file is read as. @default undefined */
  readonly onFormat?: (format: TranscriptFormat) => void
  /**
   * The file's format; `'auto'` recognises it from its first lines. Gemini CLI sessions are a replay:
   * their records are known only at the end of the file, so they come all at once (bounded).
   * @default 'auto'
   */
  readonly format?: FormatOption
  /** Stops the read between chunks; the iterator then throws the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /**
   * Lines longer than this many bytes are skipped unread and reported as a `too-long` problem, so memory
   * stays bounded whatever the file holds. @default the longest line a string can hold (~512 MiB)
   */
  readonly maxLineBytes?: number
}

/**
 * Yields the valid records of a transcript in file order, reading it in chunks: memory stays flat however
 * large the file is (one read chunk plus the longest line). Breaking out of the loop closes the file.
 */
export function streamRecords(
  filePath: string,
  options: StreamRecordsOptions = {},
): AsyncGenerator<SessionRecord, void, undefined> {
  rejectUnknownOptions(
    options,
    ['onProblem', 'onRecovered', 'onMetadata', 'onFormat', 'format', 'signal', 'maxLineBytes'],
    'streamRecords()',
  )
  // Validated here, not inside the generator, so misuse throws at the call rather than at the first next().
  const onProblem = checkCallback('onProblem', options?.onProblem)
  const onRecovered = checkCallback('onRecovered', options?.onRecovered)
  const onMetadata = checkCallback('onMetadata', options?.onMetadata)
  const onFormat = checkCallback('onFormat', options?.onFormat)
  return generate(filePath, {
    onProblem,
    onRecovered,
    onMetadata,
    onFormat,
    format: checkFormat(options?.format),
    signal: checkSignal(options?.signal),
    maxLineBytes: options?.maxLineBytes,
  })
}

interface Checked {
  readonly onProblem: (problem: ReadProblem) => void
  readonly onRecovered: (line: RecoveredTornLine) => void
  readonly onMetadata: (line: MetadataLine) => void
  readonly onFormat: (format: TranscriptFormat) => void
  readonly format: FormatOption
  readonly signal: AbortSignal | undefined
  readonly maxLineBytes: number | undefined
}

async function* generate(filePath: string, o: Checked): AsyncGenerator<SessionRecord, void, undefined> {
  const format = await resolveFormat(filePath, o.format)
  o.onFormat(format)
  for await (const batch of classifiedLines(filePath, {
    signal: o.signal,
    maxLineBytes: o.maxLineBytes,
    format,
  })) {
    for (const entry of batch) {
      if (entry.recovered !== undefined) o.onRecovered(entry.recovered)
      for (const problem of entry.problems) o.onProblem(problem)
      if (entry.metadata !== undefined) {
        for (const value of entry.metadata) o.onMetadata({ line: entry.line, offset: entry.offset, value })
      }
      for (const record of entry.records) yield record
    }
  }
}

function checkCallback<T>(name: string, given: unknown): (value: T) => void {
  if (given === undefined) return () => {}
  if (typeof given !== 'function') {
    throw new TypeError(
      `Expected \`${name}\` to be a function, got \`${describeValue(given)}\` (${typeof given})`,
    )
  }
  return given as (value: T) => void
}
