import { classifiedLines, resolveFormat } from '@sessiontape/recorder/internal'
import type { ReadProblem, TranscriptFormat } from '@sessiontape/recorder'
import { mapperFor } from './formats/index.js'
import type { ConversationEvent } from './model.js'
import {
  checkCallback,
  checkOptionsBag,
  checkReadOptions,
  invalid,
  type CheckedReadOptions,
  type StreamConversationOptions,
} from './options.js'

const OPTIONS = ['format', 'signal', 'maxLineBytes', 'onProblem', 'onFormat'] as const

/**
 * Yields a session's events in file order (Gemini CLI: its metadata lines as read, then the messages left
 * after the replay, then the usage of the messages it took back), reading the file in chunks: memory stays
 * flat however large the file is — one read chunk, the longest line, and a mapper's small per-file state. Breaking out of the loop closes the file.
 * Options are checked at the call; a file that cannot be read at all makes the first `next()` reject.
 */
export function streamConversation(
  file: string,
  options: StreamConversationOptions = {},
): AsyncGenerator<ConversationEvent, void, undefined> {
  if (typeof file !== 'string' || file === '') throw invalid('file', file, 'a non-empty path')
  const bag = checkOptionsBag(options, OPTIONS, 'streamConversation()')
  const read = checkReadOptions(bag)
  const onProblem = checkCallback<ReadProblem>('onProblem', bag.onProblem)
  const onFormat = checkCallback<TranscriptFormat>('onFormat', bag.onFormat)
  return generate(file, read, onProblem, onFormat)
}

async function* generate(
  file: string,
  read: CheckedReadOptions,
  onProblem: (problem: ReadProblem) => void,
  onFormat: (format: TranscriptFormat) => void,
): AsyncGenerator<ConversationEvent, void, undefined> {
  const format = await resolveFormat(file, read.format)
  onFormat(format)
  const mapper = mapperFor(format)
  for await (const batch of classifiedLines(file, {
    signal: read.signal,
    maxLineBytes: read.maxLineBytes,
    format,
  })) {
    for (const entry of batch) {
      for (const problem of entry.problems) onProblem(problem)
      if (entry.metadata !== undefined) {
        for (const value of entry.metadata) yield* mapper.metadata(value, entry.line)
      }
      for (const record of entry.records) yield* mapper.record(record, entry.line)
      for (const value of entry.takenBack ?? []) yield* mapper.takenBack?.(value, entry.line) ?? []
    }
  }
}
