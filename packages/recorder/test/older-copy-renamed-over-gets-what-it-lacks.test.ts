import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

/** `cp` now, `mv` later: a sync tool or an editor putting back the copy it took. */
async function putBack(filePath: string, copy: Buffer, extra = ''): Promise<void> {
  await fs.writeFile(`${filePath}.tmp`, Buffer.concat([copy, Buffer.from(extra)]))
  await fs.rename(`${filePath}.tmp`, filePath)
}

function recordsOnly(filePath: string): string[] {
  return readTranscript(filePath).map((record) => record.uuid as string)
}

describe('an older copy renamed over the transcript: every acknowledged record it lacks is written again after its last record, none twice', () => {
  for (const fileCheckIntervalMs of [0, 1000, 60_000]) {
    it(`after the recorder was idle (fileCheckIntervalMs: ${fileCheckIntervalMs})`, async () => {
      const dir = await tempDir()
      const codes: string[] = []
      const rec = createRecorder({ dir, fileCheckIntervalMs, onError: (error) => codes.push(error.code) })
      const uuids: string[] = []
      for (let i = 0; i < 20; i++) uuids.push(rec.record('chat', { i }))
      await rec.flush()
      const copy = await fs.readFile(rec.filePath)
      for (let i = 20; i < 70; i++) uuids.push(rec.record('chat', { i }))
      // All 70 acknowledged: the recorder is idle when the copy comes back.
      await rec.flush()
      await putBack(rec.filePath, copy)
      uuids.push(rec.record('chat', { i: 70 }))
      await rec.flush()
      await rec.close()
      expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])
      expect(recordsOnly(rec.filePath)).toEqual(uuids)
    })
  }

  it('a copy ending with a line that is not a record: the records it lacks follow that line', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 10; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    const copy = await fs.readFile(rec.filePath)
    for (let i = 10; i < 60; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    await putBack(rec.filePath, copy, '{"note":"added by hand"}\n')
    await rec.flush()
    uuids.push(rec.record('chat', { i: 60 }))
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records[10]).toEqual({ note: 'added by hand' })
    expect(records.filter((record) => 'uuid' in record).map((record) => record.uuid)).toEqual(uuids)
  })

  it('flush() alone (nothing new recorded) finds the copy and fills it in', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    const copy = await fs.readFile(rec.filePath)
    for (let i = 5; i < 30; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    await putBack(rec.filePath, copy)
    await rec.close()
    // close() confirms at the path: it finds the copy, which lacks 25 acknowledged records.
    expect(recordsOnly(rec.filePath)).toEqual(uuids)
  })

  it('a copy of the file the transcript replaced (it holds none of its records) gets every one of them', async () => {
    // Tamper seed 39 case 78 (stop 40): the transcript deleted, the recorder going on in a new one, then a
    // copy of the deleted file put back. The copy lacks every record of the new file, not only those since
    // the new file was last found at the path.
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    const older: string[] = []
    for (let i = 0; i < 5; i++) older.push(rec.record('chat', { i }))
    await rec.flush()
    const copy = await fs.readFile(rec.filePath)
    await fs.unlink(rec.filePath)
    const newer: string[] = []
    for (let i = 5; i < 30; i++) newer.push(rec.record('chat', { i }))
    await rec.flush()
    expect(recordsOnly(rec.filePath)).toEqual(newer)
    await putBack(rec.filePath, copy)
    const last = rec.record('chat', { i: 30 })
    await rec.flush()
    await rec.close()
    expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED', 'ERR_TRANSCRIPT_REPLACED'])
    expect(recordsOnly(rec.filePath)).toEqual([...older, ...newer, last])
  })
})
