import { recogniseFormat } from '@sessiontape/recorder/internal'
import { CliError, ExitCode } from './cli-io.js'
import { displayLine } from './display-text.js'

/** What `show` and `verify` say of a file whose content is no format they read (with exit code 2). */
export const UNKNOWN_FORMAT_CODE = 'ERR_UNKNOWN_FORMAT'

/**
 * Refuses a file that is no session of any format we read, when the format is to be recognised (`auto`):
 * reading it as ours would report "0 records" or a damaged transcript, a guess either way. An empty
 * transcript or one damaged from its first byte is still ours when its sidecar is there. `--format` reads
 * any file as the format given.
 */
export async function requireKnownFormat(command: string, filePath: string, format: string): Promise<void> {
  if (format !== 'auto') return
  if ((await recogniseFormat(filePath)) !== undefined) return
  throw new CliError(
    `sessiontape ${command}: ${displayLine(filePath)}: unknown format (no session of any agent sessiontape reads; --format <f> reads it as one)`,
    ExitCode.UNREADABLE,
    UNKNOWN_FORMAT_CODE,
  )
}
