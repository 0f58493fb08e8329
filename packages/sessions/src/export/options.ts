import type { FormatOption } from '@sessiontape/recorder'
import type { ExportFormat } from './render.js'

/** Options of {@link exportSession}. */
export interface ExportOptions {
  /**
   * `'html'`: one self-contained page (inline CSS and script, strict Content-Security-Policy, no request of
   * any kind). `'md'`: Markdown, one section per turn.
   * @default 'html'
   */
  readonly format?: ExportFormat
  /** Replace secrets by `[REDACTED:<kind>]`; the result counts them per kind. @default false */
  readonly redact?: boolean
  /**
   * With `redact`, show images anyway (under redaction each image is a placeholder: a screenshot can show a
   * secret no text rule sees). Without `redact` images are always shown, within their bounds (images.ts).
   * @default false
   */
  readonly keepImages?: boolean
  /**
   * `'active'`: only the branch the session continues from. `'all'`: every branch; rewound and side
   * branches are marked (and switchable in the page).
   * @default 'active'
   */
  readonly branch?: 'active' | 'all'
  /**
   * Write the export to this path (through a temporary file in the same directory, renamed into place: a
   * reader never sees half an export). It must not be the transcript itself, nor anything but a regular
   * file. Without it (and without `write`), the export is returned as `text`.
   */
  readonly out?: string
  /** Receives the export in chunks as it is made (memory stays flat); awaited between chunks. */
  readonly write?: (chunk: string) => void | Promise<void>
  /** How to read the transcript. @default 'auto' */
  readonly transcriptFormat?: FormatOption
  /** Stops the export between chunks; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal
  /**
   * Lines longer than this are skipped unread (counted as problems), so memory stays bounded.
   * @default 256 MiB
   */
  readonly maxLineBytes?: number
}

export interface CheckedExportOptions {
  readonly format: ExportFormat
  readonly redact: boolean
  readonly keepImages: boolean
  readonly branch: 'active' | 'all'
  readonly out: string | undefined
  readonly write: ((chunk: string) => void | Promise<void>) | undefined
  readonly transcriptFormat: FormatOption
  readonly signal: AbortSignal | undefined
  readonly maxLineBytes: number
}

const KNOWN = [
  'format',
  'redact',
  'keepImages',
  'branch',
  'out',
  'write',
  'transcriptFormat',
  'signal',
  'maxLineBytes',
]
const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024

function invalid(name: string, value: unknown, expected: string): TypeError {
  return new TypeError(`Expected \`${name}\` to be ${expected}, got \`${String(value)}\` (${typeof value})`)
}

export function checkExportOptions(options: ExportOptions): CheckedExportOptions {
  if (typeof options !== 'object' || options === null) throw invalid('options', options, 'an object')
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key))
      throw new TypeError(`Unknown option \`${key}\` of exportSession(); known: ${KNOWN.join(', ')}`)
  }
  const {
    format = 'html',
    redact = false,
    keepImages = false,
    branch = 'active',
    out,
    write,
    transcriptFormat = 'auto',
    signal,
  } = options
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  if (format !== 'html' && format !== 'md') throw invalid('format', format, "'html' or 'md'")
  if (typeof redact !== 'boolean') throw invalid('redact', redact, 'a boolean')
  if (typeof keepImages !== 'boolean') throw invalid('keepImages', keepImages, 'a boolean')
  if (branch !== 'active' && branch !== 'all') throw invalid('branch', branch, "'active' or 'all'")
  if (out !== undefined && (typeof out !== 'string' || out === ''))
    throw invalid('out', out, 'a non-empty path')
  if (write !== undefined && typeof write !== 'function') throw invalid('write', write, 'a function')
  if (out !== undefined && write !== undefined) throw new TypeError('Expected `out` or `write`, not both')
  if (typeof transcriptFormat !== 'string')
    throw invalid('transcriptFormat', transcriptFormat, 'a format name')
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalid('signal', signal, 'an AbortSignal')
  if (!(Number.isSafeInteger(maxLineBytes) && maxLineBytes > 0))
    throw invalid('maxLineBytes', maxLineBytes, 'a positive integer')
  return { format, redact, keepImages, branch, out, write, transcriptFormat, signal, maxLineBytes }
}
