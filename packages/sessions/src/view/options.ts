import type { FormatOption } from '@sessiontape/recorder'

/** Options of {@link startViewer}. */
export interface ViewerOptions {
  /**
   * The port on 127.0.0.1 to listen on; 0 picks a free one. The viewer never listens on another address.
   * @default 0
   */
  readonly port?: number
  /** How the transcripts are read. @default 'auto' */
  readonly format?: FormatOption
  /**
   * How often a followed session's file is checked for growth, in milliseconds (a live page shows an
   * appended record within about this long). 20–10,000.
   * @default 250
   */
  readonly pollMs?: number
}

export interface CheckedViewerOptions {
  readonly port: number
  readonly format: FormatOption
  readonly pollMs: number
}

export function checkViewerOptions(options: ViewerOptions): CheckedViewerOptions {
  const { port = 0, format = 'auto', pollMs = 250 } = options
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new TypeError(
      `Expected \`port\` to be an integer from 0 to 65535, got \`${String(port)}\` (${typeof port})`,
    )
  }
  if (!(Number.isFinite(pollMs) && pollMs >= 20 && pollMs <= 10_000)) {
    throw new TypeError(
      `Expected \`pollMs\` to be a number from 20 to 10000, got \`${String(pollMs)}\` (${typeof pollMs})`,
    )
  }
  if (typeof format !== 'string') {
    throw new TypeError(
      `Expected \`format\` to be a format name, got \`${String(format)}\` (${typeof format})`,
    )
  }
  return { port, format, pollMs }
}
