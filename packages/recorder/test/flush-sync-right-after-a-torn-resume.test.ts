import fs from 'node:fs'
import { expect, it } from 'vitest'

import { createRecorder, RECOVERED_RECORD_TYPE } from '../src/index.js'
import { tempDir } from './support/temp-dir.js'
import { readTranscript } from './support/transcript.js'

// A resumed session's torn tail is quarantined in the background: copied out, synced, then the transcript is
// truncated. A flushSync() that ran its own repair and appended while that was under way had its records
// cut off by the background repair's truncate.
it('flushSync() while the background repair of a torn tail is under way loses no record', async () => {
  const dir = await tempDir()
  const first = createRecorder({ dir, sessionId: 'torn' })
  const before = first.record('event', { i: 0 })
  await first.close()
  // A large torn tail: the background copy to the quarantine takes many threadpool round trips.
  fs.appendFileSync(`${dir}/torn.jsonl`, `{"uuid":"half","text":"${'z'.repeat(16 * 1024 * 1024)}`)

  const rec = createRecorder({ dir, sessionId: 'torn', resume: true, onError: () => {} })
  const uuids = [rec.record('event', { i: 1 })]
  // Wait until the background repair has created its quarantine file, i.e. is between copy and truncate.
  while (!fs.readdirSync(dir).some((name) => name.includes('.torn-'))) {
    await new Promise((resolve) => setImmediate(resolve))
  }
  try {
    rec.flushSync()
  } catch {
    // Allowed: it could not write now. Never allowed: losing what it or the background writer wrote.
  }
  uuids.push(rec.record('event', { i: 2 }))
  await rec.close()
  const records = readTranscript(rec.filePath)
  expect(records.map((r) => r.type)).toEqual(['event', RECOVERED_RECORD_TYPE, 'event', 'event'])
  expect(records.map((r) => r.uuid)).toEqual([before, records[1]!.uuid, ...uuids])
})
