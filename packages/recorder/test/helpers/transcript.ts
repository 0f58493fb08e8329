import fs from 'node:fs'

/** Every line of a transcript parsed strictly: a torn or invalid line fails the test. */
export function readTranscript(filePath: string): Array<Record<string, unknown>> {
  const text = fs.readFileSync(filePath, 'utf8')
  if (text.length === 0) return []
  if (!text.endsWith('\n')) throw new Error(`${filePath} does not end with a newline`)
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, index) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch (error) {
        throw new Error(`line ${index + 1} of ${filePath} is not JSON: ${line.slice(0, 120)}`, {
          cause: error,
        })
      }
    })
}

/**
 * uuids of the lines of a transcript that parse whole, in file order: a line damaged by a race or a cut,
 * or someone's unfinished line, is skipped (the tests that use it count what is readable).
 */
export function wholeRecordUuids(filePath: string): string[] {
  return fs
    .readFileSync(filePath, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [(JSON.parse(line) as { uuid: string }).uuid]
      } catch {
        return []
      }
    })
}

/** Byte offset of the middle of the `index`-th line (0-based) of a transcript: where a race test cuts it. */
export function middleOfLine(filePath: string, index: number): number {
  const lines = fs.readFileSync(filePath, 'utf8').split('\n')
  const start = lines.slice(0, index).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)
  return start + Math.floor(Buffer.byteLength(lines[index]!) / 2)
}

/** Checks that each record's parent is the record before it (the default chain) and returns the uuids. */
export function chainOf(records: ReadonlyArray<Record<string, unknown>>): string[] {
  return records.map((record) => record.uuid as string)
}
