import { detectFormat } from './detect-format.js'
import type { FormatOption, TranscriptFormat } from './transcript-format.js'

/** The format to read `filePath` with: the one given, or the one its first lines show (`'auto'`). */
export async function resolveFormat(filePath: string, option: FormatOption): Promise<TranscriptFormat> {
  return option === 'auto' ? detectFormat(filePath) : option
}
