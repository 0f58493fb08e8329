import fs from 'node:fs'
import { expect, it } from 'vitest'

import { createRecorder, readSession, RECOVERED_RECORD_TYPE } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

// A resumed session with a torn tail: the first write ends the torn line and appends the `recovered` record.
// A flushSync() right after createRecorder (before the background loop ran) must do the same, once: the
// torn bytes are ended exactly once and nothing is glued or written twice.
it('flushSync() right after resuming a torn transcript ends the torn line once and loses nothing', async () => {
  const dir = await tempDir()
  const first = createRecorder({ dir, sessionId: 'torn' })
  const before = first.record('event', { i: 0 })
  await first.close()
  const torn = `{"uuid":"half","text":"${'z'.repeat(1024 * 1024)}`
  fs.appendFileSync(`${dir}/torn.jsonl`, torn)
  const size = fs.statSync(`${dir}/torn.jsonl`).size

  const rec = createRecorder({ dir, sessionId: 'torn', resume: true, onError: () => {} })
  const uuids = [rec.record('event', { i: 1 })]
  rec.flushSync()
  uuids.push(rec.record('event', { i: 2 }))
  await rec.close()
  const bytes = fs.readFileSync(rec.filePath)
  expect(bytes[size]).toBe(0x0a)
  const { records, problems } = await readSession(rec.filePath)
  expect(problems).toEqual([])
  expect(records.map((r) => r.type)).toEqual(['event', RECOVERED_RECORD_TYPE, 'event', 'event'])
  expect(records.map((r) => r.uuid)).toEqual([before, records[1]!.uuid, ...uuids])
  expect(records[1]).toMatchObject({ tornOffset: size - torn.length, tornLength: torn.length })
})
