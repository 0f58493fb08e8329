import { writeFile } from 'node:fs/promises'
import { makeRecord } from './records.js'

const line = (i: number, parent: string | null, text: string) =>
  JSON.stringify(makeRecord(i, parent, { text }))

/** Lines of a transcript with one of each kind of line damage, plus an orphan. */
export const CORRUPT_LINES = [
  line(0, null, 'Refactor the parser'), // 1
  line(1, 'u0', 'On it.'), // 2
  `{"uuid":"u2","parentUuid":"u1","ty${line(3, 'u1', 'parser.ts: 420 lines')}`, // 3 glued onto a torn fragment
  '\0'.repeat(300), // 4 NUL run
  `${line(4, 'u3', 'Splitting it.')}${line(5, 'u4', 'Sounds good')}`, // 5 two records glued
  line(6, 'u-lost', 'an answer to a prompt never written'), // 6 orphan
  '42', // 7 not an object
  line(7, 'u5', 'Done.'), // 8
]
export const CORRUPT_TAIL = '{"uuid":"u8","parentUuid":"u7","type":"us'

export async function writeCorruptTranscript(file: string): Promise<string> {
  const text = `${CORRUPT_LINES.join('\n')}\n${CORRUPT_TAIL}`
  await writeFile(file, text)
  return text
}
