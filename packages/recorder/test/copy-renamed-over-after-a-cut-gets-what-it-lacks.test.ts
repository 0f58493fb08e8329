import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('a copy renamed over the transcript gets every record it lacks, however the file changed since the copy was taken', () => {
  it('a copy taken before the file was cut: the records written after the cut follow the copy, none twice', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 10; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    const copy = fs.readFileSync(rec.filePath)
    // Cut after the 5th record: the copy's last five records are no longer in the file.
    const text = copy.toString('utf8')
    fs.truncateSync(rec.filePath, Buffer.byteLength(text.split('\n').slice(0, 5).join('\n') + '\n'))
    for (let i = 10; i < 15; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    fs.writeFileSync(`${rec.filePath}.copy`, copy)
    fs.renameSync(`${rec.filePath}.copy`, rec.filePath)
    uuids.push(rec.record('chat', { i: 15 }))
    await rec.flush()
    await rec.close()
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual(uuids)
  })

  it('an empty file renamed over (a copy from before the first record): every record is carried into it', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    fs.writeFileSync(`${rec.filePath}.empty`, '')
    fs.renameSync(`${rec.filePath}.empty`, rec.filePath)
    uuids.push(rec.record('chat', { i: 5 }))
    await rec.flush()
    await rec.close()
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual(uuids)
  })

  it('a copy of the file cut through its last newline: the record that lost it is not written twice', async () => {
    // Tamper seed 39 case 39 (stop 40): the cut took only the newline of the last record; the recorder ended
    // the line (the record complete again in its file) and went on; then a copy of the cut file came back.
    // The copy's last line is that record without its newline: whole, so the carry starts after it.
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    fs.truncateSync(rec.filePath, fs.statSync(rec.filePath).size - 1)
    const copy = fs.readFileSync(rec.filePath)
    uuids.push(rec.record('chat', { i: 5 }))
    await rec.flush()
    fs.writeFileSync(`${rec.filePath}.copy`, copy)
    fs.renameSync(`${rec.filePath}.copy`, rec.filePath)
    uuids.push(rec.record('chat', { i: 6 }))
    await rec.flush()
    await rec.close()
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual(uuids)
  })
})
