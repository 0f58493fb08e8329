import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { recorderWithARacedWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// Seed 24 case 22 of the tamperer fuzz, made to happen at a known moment with real file operations: the
// transcript is emptied in place; someone's unfinished line lands in it just after the recorder's last look
// and before its first write into it (our record is glued to their line); then a copy of that file is put
// over the path. Bytes not ours at the start of an empty transcript are a rewrite in place as theirs (README
// guarantee 7: "overwrites it in place with bytes that are not this session's … also before our first
// record"): nothing in the file says it is ours. The write that raced them is counted among the records lost
// and named in the report; neither their file nor the copy of it is ever written.
describe('a write raced by an append into an emptied transcript is reported lost, and the file is never written', () => {
  it('the loss is counted, the raced write named, the copy at the path left byte for byte as it was', async () => {
    const dir = await tempDir()
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.appendFileSync(filePath, 'partial line of another tool 1'),
      after: () => {
        fs.copyFileSync(filePath, `${filePath}.copy`)
        fs.renameSync(`${filePath}.copy`, filePath)
      },
    }))
    rec.record('chat', { i: 0 })
    await rec.flush()
    fs.truncateSync(rec.filePath, 0)
    arm()
    const glued = rec.record('chat', { i: 1 })
    rec.record('chat', { i: 2 })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })

    const copy = fs.readFileSync(rec.filePath)
    expect(copy.toString('utf8')).toMatch(new RegExp(`^partial line of another tool 1\\{"uuid":"${glued}"`))
    const truncated = errors.find((error) => error.code === 'ERR_TRANSCRIPT_TRUNCATED')
    expect(truncated?.message).toMatch(/; 1 record\(s\) already written were lost/)
    const overwritten = errors.find((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN')
    expect(overwritten?.message).toMatch(/; 2 record\(s\) already written were lost with it/)
    expect(overwritten?.message).toMatch(
      /our last write \(\d+ byte\(s\), counted among those lost\) was on its way/,
    )

    // Never written, while it is at the path: flushes fail and the records stay queued.
    const later = rec.record('chat', { i: 3 })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(fs.readFileSync(rec.filePath)).toEqual(copy)
    // Moved away, the path is free again: what was still queued is written there, nothing lost twice.
    fs.renameSync(rec.filePath, `${rec.filePath}.theirs`)
    await rec.close()
    expect(fs.readFileSync(`${rec.filePath}.theirs`)).toEqual(copy)
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([later])
  })
})
