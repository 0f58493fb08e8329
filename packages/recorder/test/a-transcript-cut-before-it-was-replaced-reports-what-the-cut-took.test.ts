import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { wholeRecordUuids } from './helpers/transcript.js'

function lostIn(errors: readonly RecorderError[], code: string): string[] {
  return errors
    .filter((error) => error.code === code)
    .map((error) => error.message.match(/(at least )?\d+ record\(s\) already written were lost/)?.[0] ?? '')
}

describe('a transcript cut, then replaced by a copy of what was left, reports what the cut took', () => {
  it('cut through the last record, copied, the copy renamed over: the cut record is reported lost, with its count', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) uuids.push(rec.record('chat', { i, text: 'x'.repeat(100) }))
    await rec.flush()
    // Someone cuts the file through its last record, then an editor saves a copy of what is left over it.
    // The recorder sees the replacement first; the old file's cut must not go unreported.
    fs.truncateSync(rec.filePath, fs.statSync(rec.filePath).size - 20)
    fs.copyFileSync(rec.filePath, `${rec.filePath}.copy`)
    fs.renameSync(`${rec.filePath}.copy`, rec.filePath)
    const after = rec.record('chat', { i: 5 })
    await rec.flush()
    await rec.close()
    expect(lostIn(errors, 'ERR_TRANSCRIPT_TRUNCATED')).toEqual(['1 record(s) already written were lost'])
    expect(errors.map((error) => error.code)).toContain('ERR_TRANSCRIPT_REPLACED')
    // Every other record is in the file at the path once, whole; the cut one only in part.
    expect(wholeRecordUuids(rec.filePath)).toEqual([...uuids.slice(0, 4), after])
  })
})
