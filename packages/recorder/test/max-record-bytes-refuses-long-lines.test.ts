import { expect, it } from 'vitest'

import { createRecorder, InvalidRecordError, RecordTooLargeError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('maxRecordBytes refuses a record whose line would be longer, in UTF-8 bytes, and changes nothing', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir, maxRecordBytes: 8192, meta: false })
  const kept = rec.record('chat', { text: 'a'.repeat(7000) })
  // 3,000 characters of 3 bytes each: 9,000 bytes, under the limit in characters but not in bytes.
  const error = (() => {
    try {
      rec.record('chat', { text: '€'.repeat(3000) })
    } catch (caught) {
      return caught
    }
    return undefined
  })()
  expect(error).toBeInstanceOf(RecordTooLargeError)
  expect(error).toBeInstanceOf(InvalidRecordError)
  expect(error).toMatchObject({ code: 'ERR_RECORD_TOO_LARGE', maxRecordBytes: 8192 })
  expect((error as RecordTooLargeError).bytes).toBeGreaterThan(9000)
  expect(rec.lastUuid).toBe(kept)
  const next = rec.record('chat', { text: 'fits' })
  await rec.close()
  const lines = readTranscript(rec.filePath)
  expect(lines.map((r) => r.uuid)).toEqual([kept, next])
  expect(lines[1]!.parentUuid).toBe(kept)
})

it('maxRecordBytes below an envelope is a TypeError at createRecorder()', async () => {
  const dir = await tempDir()
  expect(() => createRecorder({ dir, maxRecordBytes: 100 })).toThrow(
    /Expected `maxRecordBytes` to be an integer >= 256/,
  )
})
