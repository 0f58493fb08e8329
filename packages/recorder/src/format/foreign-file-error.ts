import { SessiontapeError } from '../errors.js'
import type { FileOwnershipVerdict } from './file-ownership.js'

/**
 * A command that would write refused a file that is not ours (see file-ownership.ts); the file is left
 * byte for byte as it was. Same `code` as the recorder's `RecorderErrorCode.FOREIGN_FILE`.
 */
export class ForeignFileError extends SessiontapeError {
  override readonly name = 'ForeignFileError'
  declare readonly code: 'ERR_FOREIGN_FILE'
  readonly filePath: string
  readonly verdict: FileOwnershipVerdict
  constructor(filePath: string, verdict: FileOwnershipVerdict, reason: string) {
    super(
      'ERR_FOREIGN_FILE',
      `${filePath} was not written by sessiontape (${reason}); it is left untouched. ` +
        'sessiontape only changes its own transcripts.',
    )
    this.filePath = filePath
    this.verdict = verdict
  }
}
