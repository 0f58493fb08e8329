import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

/** The loss counts reported, in order (a cut or a rewrite in place). */
function lostIn(errors: readonly RecorderError[]): string[] {
  return errors
    .filter(
      (error) => error.code === 'ERR_TRANSCRIPT_TRUNCATED' || error.code === 'ERR_TRANSCRIPT_OVERWRITTEN',
    )
    .map((error) => error.message.match(/(at least )?\d+ record\(s\) already written were lost/)?.[0] ?? '')
}

/** Offset just after the line of the record `uuid` in the file. */
function endOfLine(filePath: string, uuid: string): number {
  const text = fs.readFileSync(filePath, 'utf8')
  const at = text.indexOf(`{"uuid":"${uuid}"`)
  return Buffer.byteLength(text.slice(0, text.indexOf('\n', at) + 1))
}

describe('a record cut in part and then ended by a newline is no record: counts stay exact', () => {
  it('a cut record closed by a partial line and by our newline, then a later cut: it counts exactly the records it took', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    for (let i = 0; i < 5; i++) rec.record('chat', { i, text: 'x'.repeat(100) })
    await rec.flush()
    // Cut through the last record; another tool appends an unfinished line to what is left.
    fs.truncateSync(rec.filePath, fs.statSync(rec.filePath).size - 20)
    fs.appendFileSync(rec.filePath, 'partial line of another tool')
    const kept = rec.record('chat', { i: 5 })
    await rec.flush()
    // Cut, then grown past where our last write ended: seen as a rewrite in place that took one record.
    expect(lostIn(errors)).toEqual(['1 record(s) already written were lost'])
    // The file now has a line that starts like our 5th record and ends with the other tool's bytes: not a record.
    const taken = [rec.record('chat', { i: 6 }), rec.record('chat', { i: 7 })]
    await rec.flush()
    fs.truncateSync(rec.filePath, endOfLine(rec.filePath, kept))
    rec.record('chat', { i: 8 })
    await rec.flush()
    await rec.close()
    expect(taken).toHaveLength(2)
    expect(lostIn(errors)).toEqual([
      '1 record(s) already written were lost',
      '2 record(s) already written were lost',
    ])
  })
})
