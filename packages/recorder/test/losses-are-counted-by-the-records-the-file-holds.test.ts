import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

/** Offset just after the line of the record `uuid` in the file. */
function endOfLine(filePath: string, uuid: string): number {
  const text = fs.readFileSync(filePath, 'utf8')
  const at = text.indexOf(`{"uuid":"${uuid}"`)
  return Buffer.byteLength(text.slice(0, text.indexOf('\n', at) + 1))
}

function lostIn(errors: readonly RecorderError[], code: string): string | undefined {
  return errors
    .filter((error) => error.code === code)
    .at(-1)
    ?.message.match(/(at least )?\d+ record\(s\) already written were lost/)?.[0]
}

describe('a cut or an overwrite counts exactly the records it took, wherever they came from', () => {
  it('a cut into a copy that was renamed over the transcript', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    const uuids: string[] = []
    for (let i = 0; i < 10; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    // An editor's save: a copy renamed over. The recorder goes on in the copy.
    fs.copyFileSync(rec.filePath, `${rec.filePath}.copy`)
    fs.renameSync(`${rec.filePath}.copy`, rec.filePath)
    for (let i = 10; i < 15; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    // Cut after the copy's 7th record: 3 of the copy's and the 5 written since.
    fs.truncateSync(rec.filePath, endOfLine(rec.filePath, uuids[6]!))
    rec.record('chat', { i: 15 })
    await rec.flush()
    await rec.close()
    expect(lostIn(errors, 'ERR_TRANSCRIPT_TRUNCATED')).toBe('8 record(s) already written were lost')
  })

  it('a cut into records carried into the file made after the transcript was deleted', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 60_000, onError: (error) => errors.push(error) })
    rec.record('chat', { i: 0 })
    await rec.flush()
    fs.rmSync(rec.filePath)
    // Written into the deleted file (the check is not due yet), then carried into the new one at the flush.
    const uuids: string[] = []
    for (let i = 1; i < 6; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    expect(fs.readFileSync(rec.filePath, 'utf8').split('\n')).toHaveLength(6)
    const after = rec.record('chat', { i: 6 })
    await rec.flush()
    // Cut after the 2nd carried record: 3 carried ones and the one written since.
    fs.truncateSync(rec.filePath, endOfLine(rec.filePath, uuids[1]!))
    rec.record('chat', { i: 7 })
    await rec.flush()
    await rec.close()
    expect(after).toBeTypeOf('string')
    expect(lostIn(errors, 'ERR_TRANSCRIPT_TRUNCATED')).toBe('4 record(s) already written were lost')
  })

  it('an overwrite in place after a cut counts only what the file still held', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    const uuids: string[] = []
    for (let i = 0; i < 6; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    fs.truncateSync(rec.filePath, endOfLine(rec.filePath, uuids[3]!))
    rec.record('chat', { i: 6 })
    await rec.flush()
    expect(lostIn(errors, 'ERR_TRANSCRIPT_TRUNCATED')).toBe('2 record(s) already written were lost')
    // The file holds 5 of ours now (4 left by the cut, 1 written since): an overwrite takes those 5.
    fs.writeFileSync(rec.filePath, 'name,value\nrow,1\n')
    rec.record('chat', { i: 7 })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(lostIn(errors, 'ERR_TRANSCRIPT_OVERWRITTEN')).toBe('5 record(s) already written were lost')
    fs.rmSync(rec.filePath)
    await rec.close()
  })
})
