import type { FormatOption, ReadProblem, TranscriptFormat } from '@sessiontape/recorder'
import { TRANSCRIPT_FORMATS } from '@sessiontape/recorder'
import { SessionsArgumentError } from './errors.js'

/** Options of `readConversation()`. */
export interface ReadConversationOptions {
  /**
   * The file's format; `'auto'` recognises it from its content, as the recorder's readers do.
   * @default 'auto'
   */
  readonly format?: FormatOption
  /** Stops the read between chunks; the promise then rejects with the signal's reason. @default undefined */
  readonly signal?: AbortSignal
  /**
   * Lines longer than this many bytes are skipped unread (a `too-long` problem), so memory stays bounded
   * whatever the file holds.
   * @default the longest line a string can hold (~512 MiB)
   */
  readonly maxLineBytes?: number
}

/** Options of `streamConversation()`. */
export interface StreamConversationOptions extends ReadConversationOptions {
  /**
   * Receives each line-level problem (the ones that need the whole file — `orphan`, `duplicate-uuid`,
   * `cycle` — only `readConversation()` reports). Never thrown.
   * @default undefined (not reported)
   */
  readonly onProblem?: (problem: ReadProblem) => void
  /** Called once, before the first event, with the format the file is read as. @default undefined */
  readonly onFormat?: (format: TranscriptFormat) => void
}

/** What `validateReadOptions` hands on, checked. */
export interface CheckedReadOptions {
  readonly format: FormatOption
  readonly signal: AbortSignal | undefined
  readonly maxLineBytes: number | undefined
}

/** Checks a bag of options at the boundary: unknown keys and wrong types throw, naming the option. */
export function checkOptionsBag(
  options: unknown,
  known: readonly string[],
  what: string,
): Record<string, unknown> {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object') {
    throw invalid(`the options of ${what}`, options, 'an object')
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new SessionsArgumentError(
        `Unknown option \`${key}\` of ${what}; known options: ${known.map((k) => `\`${k}\``).join(', ')}`,
      )
    }
  }
  return options as Record<string, unknown>
}

/** Validates the options every reader takes. */
export function checkReadOptions(given: Record<string, unknown>): CheckedReadOptions {
  const { format, signal, maxLineBytes } = given
  if (
    format !== undefined &&
    format !== 'auto' &&
    !(TRANSCRIPT_FORMATS as readonly unknown[]).includes(format)
  ) {
    throw invalid('format', format, `one of 'auto', ${TRANSCRIPT_FORMATS.map((f) => `'${f}'`).join(', ')}`)
  }
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalid('signal', signal, 'an AbortSignal')
  if (maxLineBytes !== undefined && !(Number.isSafeInteger(maxLineBytes) && (maxLineBytes as number) > 0)) {
    throw invalid('maxLineBytes', maxLineBytes, 'a positive integer')
  }
  return {
    format: (format ?? 'auto') as FormatOption,
    signal: signal,
    maxLineBytes: maxLineBytes as number | undefined,
  }
}

/** A callback option, or a no-op when absent. */
export function checkCallback<T>(name: string, given: unknown): (value: T) => void {
  if (given === undefined) return () => {}
  if (typeof given !== 'function') throw invalid(name, given, 'a function')
  return given as (value: T) => void
}

/** The one message template for a bad option. */
export function invalid(name: string, value: unknown, expected: string): SessionsArgumentError {
  const shown =
    typeof value === 'string'
      ? `'${value}'`
      : typeof value === 'object' && value !== null
        ? Object.prototype.toString.call(value)
        : String(value)
  return new SessionsArgumentError(
    `Expected \`${name}\` to be ${expected}, got \`${shown}\` (${typeof value})`,
  )
}
