import { expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

// onError is documented as never called from inside record(): a handler that records, logs through the same
// recorder or closes it must not re-enter the recorder in the middle of a call. The drain-sync overflow
// policy runs a synchronous drain inside record(), and its failures used to be reported right there.
it('a synchronous overflow drain that fails inside record() reports to onError only after record() returned', async () => {
  const dir = await tempDir()
  const fs = fakeFs({
    overrides: {
      writeSync: () => () => {
        throw errno('EIO')
      },
    },
  })
  let insideRecord = false
  const reports: Array<{ code: string; insideRecord: boolean }> = []
  const rec = createRecorder({
    dir,
    sessionId: 'reentry',
    fs,
    fsync: 'never',
    maxQueueBytes: 4096,
    onError: (error: RecorderError) => reports.push({ code: error.code, insideRecord }),
  })
  await rec.ready()
  // One synchronous burst: the queue passes the bound before the background writer gets a turn.
  for (let i = 0; i < 40; i++) {
    insideRecord = true
    try {
      rec.record('event', { i, text: 'x'.repeat(200) })
    } catch (error) {
      // Once the drain failed, records past the bound are refused (typed); that is not what is tested here.
      expect(error).toMatchObject({ code: 'ERR_RECORDER_QUEUE_FULL' })
    }
    insideRecord = false
  }
  expect(fs.calls.writeSync).toBeGreaterThan(0)
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(reports.map((report) => report.code)).toContain('ERR_RECORDER_WRITE_FAILED')
  expect(reports.filter((report) => report.insideRecord)).toEqual([])
  await rec.close()
})
