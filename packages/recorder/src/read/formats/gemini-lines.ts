import { readWholeFile } from '../byte-source.js'
import path from 'node:path'
import { lineBatches, type LineTail } from '../line-batches.js'
import {
  notAnObject,
  overlongLineProblem,
  parseLineWith,
  tornTailProblem,
  type LineSink,
} from '../../format/parse-line.js'
import type { ReadProblem } from '../../format/problem.js'
import type { ClassifiedLine } from '../torn-line-tracker.js'
import { GeminiReplay } from './gemini-replay.js'

/**
 * Bound on what a Gemini replay holds: the messages that survive are only known at the end of the file,
 * so they are kept until then. Past this many characters of messages (and of what is kept of those taken
 * back: their token counts), later new messages are dropped and reported (`too-long`), so memory never
 * follows an arbitrary file.
 */
export const MAX_REPLAY_CHARS = 256 * 1024 * 1024
/** The older single-document format must be parsed whole: a bigger file is reported, not read. */
export const MAX_LEGACY_DOCUMENT_BYTES = 256 * 1024 * 1024

type Line = ClassifiedLine<undefined>

export interface GeminiLinesOptions {
  readonly signal?: AbortSignal | undefined
  readonly maxLineBytes?: number | undefined
  /** @internal Test seam for the replay bound. */
  readonly maxReplayChars?: number
}

/** Collects each parsed object of a line (Gemini lines are all objects; anything else is a problem). */
function collectObject(value: unknown, line: number, sink: LineSink): number {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return notAnObject(value, line, sink)
  sink.metadata?.(value as Record<string, unknown>, line)
  return 0
}

/**
 * The classified lines of a Gemini CLI JSONL session, replayed (see {@link GeminiReplay}): problems and
 * metadata lines come out as they are read, the surviving messages at the end, in conversation order.
 */
export async function* geminiJsonlLines(
  filePath: string,
  options: GeminiLinesOptions = {},
): AsyncGenerator<Line[]> {
  const replay = new GeminiReplay(options.maxReplayChars ?? MAX_REPLAY_CHARS)
  let out: Line[] = []
  let objects: Record<string, unknown>[] = []
  let problems: ReadProblem[] = []
  const sink: LineSink = {
    record: () => {},
    problem: (problem) => problems.push(problem),
    metadata: (value) => objects.push(value),
  }
  const take = (text: string, line: number, offset: number, length: number): void => {
    parseLineWith(collectObject, text, line, sink)
    const metadata: Record<string, unknown>[] = []
    for (const value of objects) {
      if (replay.apply(value, line, offset, length) !== 'message') metadata.push(value)
    }
    const located = problems.map((p) => ({ ...p, offset }))
    if (metadata.length > 0 || located.length > 0) {
      out.push({ line, offset, length, payload: undefined, records: [], problems: located, metadata })
    }
    objects = []
    problems = []
  }
  let tail: LineTail | undefined
  const batches = lineBatches(filePath, {
    onTail: (found) => (tail = found),
    onOverlong: (line, bytes, terminated, offset) => {
      const problem = overlongLineProblem(line, bytes, terminated, offset)
      out.push({ line, offset, length: bytes, payload: undefined, records: [], problems: [problem] })
    },
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
  })
  for await (const batch of batches) {
    for (let i = 0; i < batch.lines.length; i++) {
      take(batch.lines[i]!, batch.firstLine + i, batch.starts[i]!, batch.lengths[i]!)
    }
    if (out.length > 0) {
      yield out
      out = []
    }
  }
  const found = tail
  if (found !== undefined) {
    // Gemini writes `JSON + "\n"` per line: a last line without its newline that still parses is whole.
    parseLineWith(collectObject, found.text, found.line, sink)
    const clean = problems.length === 0 && objects.length > 0
    objects = []
    problems = []
    if (clean) take(found.text, found.line, found.offset, found.bytes.length)
    else {
      const problem = tornTailProblem(found.text, found.line, found.offset)
      out.push({ ...at(found.line, found.offset, found.bytes.length), problems: [problem] })
    }
  }
  out.push(...messagesOf(replay, filePath))
  if (replay.overflowed) out.push(overflowLine(replay.maxChars))
  if (out.length > 0) yield out
}

/** The older format: one JSON document per session, read whole (bounded by {@link MAX_LEGACY_DOCUMENT_BYTES}). */
export async function* geminiDocumentLines(
  filePath: string,
  options: GeminiLinesOptions = {},
): AsyncGenerator<Line[]> {
  options.signal?.throwIfAborted()
  const whole = await readWholeFile(filePath, MAX_LEGACY_DOCUMENT_BYTES)
  if ('tooLong' in whole) {
    const size = whole.tooLong
    yield [
      {
        ...at(1, 0, size),
        problems: [
          {
            line: 1,
            offset: 0,
            kind: 'too-long',
            detail: `a JSON document of at least ${size} bytes, over the ${MAX_LEGACY_DOCUMENT_BYTES}-byte bound for one session document; not read`,
          },
        ],
      },
    ]
    return
  }
  const { text, size } = whole
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    yield [
      {
        ...at(1, 0, size),
        problems: [{ line: 1, offset: 0, kind: 'invalid-json', detail: `not one JSON document (${reason})` }],
      },
    ]
    return
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const problems: ReadProblem[] = []
    notAnObject(value, 1, { record: () => {}, problem: (p) => problems.push({ ...p, offset: 0 }) })
    yield [{ ...at(1, 0, size), problems }]
    return
  }
  const replay = new GeminiReplay(options.maxReplayChars ?? MAX_REPLAY_CHARS)
  const document = value as Record<string, unknown>
  replay.apply(document, 1, 0, size)
  const { messages: _messages, ...header } = document
  const out: Line[] = [{ ...at(1, 0, size), problems: [], metadata: [header] }]
  out.push(...messagesOf(replay, filePath))
  if (replay.overflowed) out.push(overflowLine(replay.maxChars))
  yield out
}

function messagesOf(replay: GeminiReplay, filePath: string): Line[] {
  // A file without a header still names its session: Gemini's file name ends in the id's first 8 chars.
  const fallback = path.basename(filePath).replace(/\.jsonl?$/, '')
  const messages = replay
    .messages(fallback)
    .map((m): Line => ({ ...at(m.line, m.offset, m.length), records: [m.record] }))
  // Then the messages a rewind took back that carry token counts: not the conversation's, but requests
  // that were made (a usage total counts them).
  const takenBack = replay
    .takenBack()
    .map((m): Line => ({ ...at(m.line, m.offset, m.length), takenBack: [m.value] }))
  return [...messages, ...takenBack]
}

function at(line: number, offset: number, length: number): Line {
  return { line, offset, length, payload: undefined, records: [], problems: [] }
}

function overflowLine(maxChars: number): Line {
  return {
    ...at(1, 0, 0),
    problems: [
      {
        line: 1,
        kind: 'too-long',
        detail: `the replay held its bound of ${maxChars} characters of messages; later new or larger messages were not read`,
      },
    ],
  }
}
