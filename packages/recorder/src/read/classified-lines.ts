import { geminiDocumentLines, geminiJsonlLines } from './formats/gemini-lines.js'
import { lineParserFor } from './formats/line-parser-for.js'
import type { TranscriptFormat } from './formats/transcript-format.js'
import type { SourceDamage } from './byte-source.js'
import { lineBatches, type LineTail } from './line-batches.js'
import { TornLineTracker, type ClassifiedLine, type LineParser } from './torn-line-tracker.js'
import { newChain } from './formats/codex-lines.js'
import { codexSegmentChain } from './formats/codex-segments.js'
import { sessionFiles } from './session-files.js'
import { stitchedLines } from './stitched-lines.js'

export interface ClassifiedLinesOptions {
  readonly signal?: AbortSignal | undefined
  /** Lines longer than this are skipped unread and reported as `too-long`. @default the longest decodable line */
  readonly maxLineBytes?: number | undefined
  /** Attach each line's bytes as its payload (for a caller that copies lines byte for byte). @default false */
  readonly raw?: boolean
  /**
   * How the lines are read (already resolved: see `resolveFormat`). Other tools' formats have their own
   * rules for what a record is; Gemini's are replayed, so their records come at the end.
   * @default 'sessiontape'
   */
  readonly format?: TranscriptFormat
  /**
   * Read only this file, not the other files of its session (segments: format/segments.ts). Repair works on
   * one file; every reader of a session reads them all. @default false
   */
  readonly oneFile?: boolean
  /** Told, before the first line, which files are read, in order (one for a session of one file). */
  readonly onFiles?: (files: readonly string[]) => void
}

/**
 * The lines of a transcript, classified (records, damage, recovered torn lines), in file order and in
 * batches, with bounded memory: one read buffer plus the damaged lines held since the last record.
 * Payloads are the line bytes with `raw` (an over-long line's payload is empty: it was never read).
 */
export async function* classifiedLines(
  filePath: string,
  options: ClassifiedLinesOptions = {},
): AsyncGenerator<ClassifiedLine<Buffer | undefined>[]> {
  const format = options.format ?? 'sessiontape'
  if (format === 'gemini-cli') {
    options.onFiles?.([filePath])
    yield* geminiJsonlLines(filePath, options)
    return
  }
  if (format === 'gemini-json') {
    options.onFiles?.([filePath])
    yield* geminiDocumentLines(filePath, options)
    return
  }
  if (format === 'codex-cli') {
    // A later segment of a Codex thread holds only what came after its base: the thread is read from its
    // first segment to this file, one chain of records across them (see codexSegmentChain).
    const chain = newChain(filePath)
    const segments = await codexSegmentChain(filePath, options.signal)
    options.onFiles?.(segments)
    for (const segment of segments) {
      yield* linesOf(segment, lineParserFor(format, segment, chain)!, options)
    }
    return
  }
  if (format === 'sessiontape' && options.oneFile !== true) {
    const files = await sessionFiles(filePath)
    options.onFiles?.(files.map((file) => file.path))
    if (files.length > 1 || files[0]!.path !== filePath) {
      yield* stitchedLines(files, (file) => linesOf(file, lineParserFor(format, file)!, options))
      return
    }
  } else options.onFiles?.([filePath])
  yield* linesOf(filePath, lineParserFor(format, filePath)!, options)
}

async function* linesOf(
  filePath: string,
  { parse, completeTail }: { parse: LineParser; completeTail: boolean },
  options: ClassifiedLinesOptions,
): AsyncGenerator<ClassifiedLine<Buffer | undefined>[]> {
  const raw = options.raw === true
  let out: ClassifiedLine<Buffer | undefined>[] = []
  const tracker = new TornLineTracker<Buffer | undefined>((line) => out.push(line), 0, parse, completeTail)
  let tail: LineTail | undefined
  let overlongTail: { line: number; bytes: number; offset: number } | undefined
  // The number the line after the last complete one would have (where damage at the end is reported).
  let lastLine = 1
  let damage: { kind: SourceDamage['kind']; detail: string; offset: number } | undefined
  const batches = lineBatches(filePath, {
    onDamage: (found, offset) => (damage = { ...found, offset }),
    onTail: (found) => (tail = found),
    onOverlong: (line, bytes, terminated, offset) => {
      if (terminated) {
        tracker.overlong(line, offset, bytes, raw ? Buffer.alloc(0) : undefined)
        lastLine = line + 1
      } else overlongTail = { line, bytes, offset }
    },
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
    raw,
  })
  for await (const batch of batches) {
    const { lines, starts, lengths, firstLine } = batch
    lastLine = firstLine + lines.length
    for (let i = 0; i < lines.length; i++) {
      tracker.line(lines[i]!, firstLine + i, starts[i]!, lengths[i]!, raw ? batch.raw[i]! : undefined)
    }
    if (out.length > 0) {
      yield out
      out = []
    }
  }
  const found = tail
  if (found !== undefined) {
    const { text, line, offset, bytes } = found
    tracker.end({ text, line, offset, length: bytes.length, overlong: false }, raw ? bytes : undefined)
  } else if (overlongTail !== undefined) {
    const { line, bytes, offset } = overlongTail
    tracker.end({ text: '', line, offset, length: bytes, overlong: true }, raw ? Buffer.alloc(0) : undefined)
  } else tracker.end()
  if (damage !== undefined) {
    // A compressed file whose content stops early: reported once, after its last line.
    const line =
      (tail?.line ?? overlongTail?.line ?? lastLine) +
      (tail !== undefined || overlongTail !== undefined ? 1 : 0)
    const { kind, detail, offset } = damage
    out.push({
      line,
      offset,
      length: 0,
      payload: raw ? Buffer.alloc(0) : undefined,
      records: [],
      problems: [{ line, offset, kind, detail }],
    })
  }
  if (out.length > 0) yield out
}
