import { lineBatches } from '@sessiontape/recorder/internal'

/** A position in a transcript: the byte offset just after a line, and that line's 1-based number. */
export interface LineEnd {
  readonly offset: number
  readonly line: number
}

/**
 * Where a follower continues in a replaced (repaired) transcript: just after the last line that starts
 * with the record `uuid` (the writer puts `uuid` first, and a repair keeps that order), so records
 * appended after the replacement are not skipped. Without it, the end of the last complete line.
 */
export async function findRecordLine(filePath: string, uuid: string | null): Promise<LineEnd> {
  const start = uuid === null ? undefined : `{"uuid":${JSON.stringify(uuid)}`
  let offset = 0
  let line = 0
  let found: LineEnd | undefined
  const batches = lineBatches(filePath, {
    onTail: () => {
      // A partial last line is a write in progress: the follower reads it once it is complete.
    },
    onOverlong: (number, bytes) => {
      offset += bytes + 1
      line = number
    },
    raw: true,
  })
  for await (const batch of batches) {
    for (let i = 0; i < batch.lines.length; i++) {
      offset += batch.raw[i]!.length + 1
      line = batch.firstLine + i
      if (start !== undefined && batch.lines[i]!.startsWith(start)) found = { offset, line }
    }
  }
  return found ?? { offset, line }
}
