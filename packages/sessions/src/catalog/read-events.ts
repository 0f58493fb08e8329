import type { SessionRecord, TranscriptFormat } from '@sessiontape/recorder'
import { classifiedLines, lineBatches, lineParserFor } from '@sessiontape/recorder/internal'
import { mapperFor } from '../formats/index.js'
import type { ConversationEvent } from '../model.js'

/** Where a read stopped: the byte offset of the first line not read yet, and that line's number. */
export interface ReadPoint {
  readonly offset: number
  readonly line: number
}

/** What a read hands on, in file order. */
export interface EventSink {
  event(event: ConversationEvent): void
  /** A record was read (counted; its uuid is the session's last so far; the viewer keeps its links). */
  record(uuid: string, record: SessionRecord): void
  /** A damaged or over-long line. */
  problem(): void
  /**
   * A line over {@link CATALOG_MAX_LINE_BYTES}, skipped unparsed (after `problem()`): where its bytes are in
   * the file, for a reader that searches it in chunks (search/long-line.ts). In a compressed file the
   * offset is in its content, not in the file.
   */
  overlong?(line: number, offset: number, length: number): void
  /**
   * Awaited after each batch of lines: a reader that must not run ahead of its consumer (the viewer, while
   * a page's stream drains) holds the read here. The catalog and search pass none.
   */
  pace?(): Promise<void> | void
}

/**
 * Lines longer than this are skipped and counted as problems: a 16 MiB line is far above any real record
 * (the CLI's bound too), and it keeps one session's read inside the catalog's memory budget.
 */
export const CATALOG_MAX_LINE_BYTES = 16 * 1024 * 1024

/**
 * Formats written one record per line and only appended to: their tail can be read on its own. Gemini CLI's
 * are replays (a later line can rewind or patch earlier ones): always read whole.
 */
const APPEND_ONLY_FORMATS: ReadonlySet<string> = new Set([
  'sessiontape',
  'claude-code',
  'qwen-code',
  'codex-cli',
  'copilot-cli',
])

export function canReadTail(format: TranscriptFormat): boolean {
  return APPEND_ONLY_FORMATS.has(format) && lineParserFor(format) !== undefined
}

/**
 * Reads `file` as `format` from `from` (a point a previous read returned; only for {@link canReadTail}
 * formats) or from the start — with `segments` (a session of ours kept in several files), all of them, and maps it onto the conversation model. Returns where the next read starts:
 * after the last complete line, or, for a format whose last line needs no newline, after a last line that
 * parsed whole (a line still being written does not parse, and is read again next time).
 */
export async function readEvents(
  file: string,
  format: TranscriptFormat,
  from: ReadPoint | undefined,
  sink: EventSink,
  signal?: AbortSignal,
  segments?: readonly string[],
): Promise<ReadPoint> {
  const mapper = mapperFor(format)
  const emit = (events: readonly ConversationEvent[]): void => {
    for (const event of events) sink.event(event)
  }
  const onRecord = (record: SessionRecord, line: number): void => {
    sink.record(record.uuid, record)
    emit(mapper.record(record, line))
  }
  // A session of ours kept in segments is read whole by the recorder's reader, which stitches its files.
  const parser = canReadTail(format) && segments === undefined ? lineParserFor(format) : undefined
  if (parser === undefined) {
    // Whole-file formats: the recorder's reader applies the replay; every line is read again.
    let end: ReadPoint = { offset: 0, line: 1 }
    for await (const batch of classifiedLines(file, {
      format,
      maxLineBytes: CATALOG_MAX_LINE_BYTES,
      signal,
    })) {
      for (const line of batch) {
        for (const value of line.metadata ?? []) emit(mapper.metadata(value, line.line))
        for (const record of line.records) onRecord(record, line.line)
        for (const value of line.takenBack ?? []) emit(mapper.takenBack?.(value, line.line) ?? [])
        if (line.problems.length > 0) sink.problem()
        if (line.problems.some((problem) => problem.kind === 'too-long'))
          sink.overlong?.(line.line, line.offset, line.length)
        end = { offset: line.offset + line.length + 1, line: line.line + 1 }
      }
      await sink.pace?.()
    }
    return end
  }
  const lineSink = {
    record: onRecord,
    metadata: (value: Record<string, unknown>, line: number) => emit(mapper.metadata(value, line)),
  }
  let end: ReadPoint = from ?? { offset: 0, line: 1 }
  let tail: { text: string; line: number; offset: number; length: number } | undefined
  const batches = lineBatches(file, {
    startOffset: end.offset,
    firstLine: end.line,
    maxLineBytes: CATALOG_MAX_LINE_BYTES,
    signal,
    onTail: (found) =>
      (tail = { text: found.text, line: found.line, offset: found.offset, length: found.bytes.length }),
    onOverlong: (line, bytes, terminated, offset) => {
      sink.problem()
      sink.overlong?.(line, offset, bytes)
      if (terminated) end = { offset: offset + bytes + 1, line: line + 1 }
    },
  })
  for await (const batch of batches) {
    const { lines, starts, lengths, firstLine } = batch
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!
      if (text.trim() !== '') parseLine(text, firstLine + i)
      end = { offset: starts[i]! + lengths[i]! + 1, line: firstLine + i + 1 }
    }
    await sink.pace?.()
  }
  const last = tail
  if (last !== undefined && parser.completeTail && last.text.trim() !== '') {
    // A complete last line without its newline is a record in other tools' files; one still being written
    // does not parse, and then nothing of it is taken (it is read again, whole, next time).
    const probe = { records: 0, metadata: 0, problems: 0 }
    const held: (() => void)[] = []
    parser.parse(last.text, last.line, {
      record: (record, line) => {
        probe.records++
        held.push(() => onRecord(record, line))
      },
      metadata: (value, line) => {
        probe.metadata++
        held.push(() => emit(mapper.metadata(value, line)))
      },
      problem: () => probe.problems++,
    })
    if (probe.problems === 0 && probe.records + probe.metadata > 0) {
      for (const run of held) run()
      // The next read starts right after it: its newline, when it comes, is read as the rest of this line.
      end = { offset: last.offset + last.length, line: last.line }
    }
  }
  return end

  function parseLine(text: string, line: number): void {
    let problems = 0
    parser!.parse(text, line, { ...lineSink, problem: () => problems++ })
    if (problems > 0) sink.problem()
  }
}
