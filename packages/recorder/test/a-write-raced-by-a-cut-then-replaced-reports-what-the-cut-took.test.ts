import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { recorderWithARacedWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// Tamper seed 25 case 3, at a known moment with real file operations: the transcript is cut to nothing just
// after the recorder's last look and before its write lands (the write then starts the file again), and an
// empty copy is renamed over the path before the recorder looks again. The records the cut took were
// acknowledged: their loss is reported with its count before the file is let go.
describe('a write raced by a cut to nothing, the file then replaced, reports what the cut took', () => {
  it('the loss is counted; the raced write is carried into the file at the path', async () => {
    const dir = await tempDir()
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.truncateSync(filePath, 0),
      after: () => {
        fs.writeFileSync(`${filePath}.copy`, '')
        fs.renameSync(`${filePath}.copy`, filePath)
      },
    }))
    for (let i = 0; i < 3; i++) rec.record('chat', { i })
    await rec.flush()
    arm()
    const raced = rec.record('chat', { i: 3 })
    await rec.flush().catch(() => {})
    await rec.close()
    const reports = errors
      .filter(
        (error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN' || error.code === 'ERR_TRANSCRIPT_TRUNCATED',
      )
      .map((error) => /(\d+) record\(s\) already written were lost/.exec(error.message)?.[1])
    expect(reports).toEqual(['3'])
    expect(fs.readFileSync(rec.filePath, 'utf8')).toContain(raced)
  })

  it('deleted instead of replaced: the loss is counted; the raced write is carried into the new file', async () => {
    const dir = await tempDir()
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.truncateSync(filePath, 0),
      after: () => fs.unlinkSync(filePath),
    }))
    for (let i = 0; i < 3; i++) rec.record('chat', { i })
    await rec.flush()
    arm()
    const raced = rec.record('chat', { i: 3 })
    await rec.flush()
    const after = rec.record('chat', { i: 4 })
    await rec.flush()
    await rec.close()
    const lost = errors
      .map((error) => /(\d+) record\(s\) already written were lost/.exec(error.message)?.[1])
      .filter((count) => count !== undefined)
    expect(lost).toEqual(['3'])
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([raced, after])
  })
})
