import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { raceOurNextWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { wholeRecordUuids } from './helpers/transcript.js'

// Someone changes the end of the file between the read that checks it and our write (a race of
// microseconds, made certain here: the fs seam runs their change right before our write reaches the file).
const beforeOurNextWrite = (change: () => void) => raceOurNextWrite({ before: change })

function lines(filePath: string): string[] {
  return fs.readFileSync(filePath, 'utf8').split('\n').slice(0, -1)
}

describe("a record our write glued to someone else's unfinished line by a race is written again on a line of its own", () => {
  it('their partial line appended just before our write: the record is written again, nothing twice, the damaged line stays', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    let path = ''
    const seam = beforeOurNextWrite(() => fs.appendFileSync(path, 'partial line of another tool'))
    const rec = createRecorder({ dir, fs: seam.fs, onError: (error) => errors.push(error) })
    path = rec.filePath
    const first = rec.record('first')
    await rec.flush()
    seam.arm()
    const second = rec.record('second')
    const third = rec.record('third')
    await rec.flush()
    await rec.close()
    const text = lines(rec.filePath)
    expect(text[1]).toMatch(/^partial line of another tool\{"uuid":"/)
    const records = text
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { uuid: string })
    expect(records.map((record) => record.uuid)).toEqual([first, third, second])
    const changed = errors.find((error) => error.code === 'ERR_TRANSCRIPT_CHANGED')
    expect(changed?.message).toMatch(/glued to their unfinished line, and is written again/)
  })

  it('the file cut mid-line just before our write: the record is written again, the cut record counted as lost', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    let path = ''
    const seam = beforeOurNextWrite(() => fs.truncateSync(path, fs.statSync(path).size - 10))
    const rec = createRecorder({ dir, fs: seam.fs, onError: (error) => errors.push(error) })
    path = rec.filePath
    const first = rec.record('first')
    rec.record('cut')
    await rec.flush()
    seam.arm()
    const third = rec.record('third')
    await rec.flush()
    await rec.close()
    expect(wholeRecordUuids(rec.filePath)).toEqual([first, third])
    const truncated = errors.find((error) => error.code === 'ERR_TRANSCRIPT_TRUNCATED')
    expect(truncated?.message).toMatch(/; 1 record\(s\) already written were lost/)
  })
})
