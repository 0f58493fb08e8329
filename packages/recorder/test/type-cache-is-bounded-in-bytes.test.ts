import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { typeCacheSize } from '../src/write/serialize/serialize-record.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('record types of 1 MiB are written but never kept in the process-wide type cache', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir, meta: false })
  const before = typeCacheSize()
  for (let i = 0; i < 20; i++) rec.record(`${i}`.padEnd(1024 * 1024, 't'), { i })
  await rec.close()
  const after = typeCacheSize()
  // Not one of the twenty 1 MiB types stayed (the cache would otherwise hold 20 MiB of them forever).
  expect(after.chars - before.chars).toBeLessThan(1024)
  expect(readTranscript(rec.filePath).map((r) => (r.type as string).length)).toEqual(
    Array(20).fill(1024 * 1024),
  )
})

it('the cache holds at most 256 short types, however many a caller invents', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir, meta: false })
  for (let i = 0; i < 1000; i++) rec.record(`type-${i}`)
  await rec.close()
  expect(typeCacheSize().entries).toBeLessThanOrEqual(256)
})
