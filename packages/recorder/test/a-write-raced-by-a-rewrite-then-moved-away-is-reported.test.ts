import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { recorderWithARacedWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('a write of ours that raced someone rewriting the file as theirs, the file then moved away, is reported', () => {
  it('their file keeps our bytes (the one write no check can protect): the writer says so, with the loss count', async () => {
    const dir = await tempDir()
    const moved = path.join(dir, 'theirs.csv')
    // The race at a known moment, with real file operations: another tool rewrites the file (`cat x > file`:
    // truncate, write) just after the recorder's last look at it and before its write lands; then moves it.
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.writeFileSync(filePath, 'n'),
      after: () => fs.renameSync(filePath, moved),
    }))
    rec.record('chat', { i: 0 })
    await rec.flush()
    arm()
    rec.record('chat', { i: 1 })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    const overwritten = errors.find((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN')
    expect(overwritten?.message).toMatch(/2 record\(s\) already written were lost/)
    expect(overwritten?.message).toMatch(
      /our last write \(\d+ byte\(s\), counted among those lost\) was on its way/,
    )
    // Their file: their byte, then ours (reported above); nothing else of ours is ever written there.
    expect(fs.readFileSync(moved, 'utf8')).toMatch(/^n\{"uuid":"/)
    const theirs = fs.readFileSync(moved)
    const after = rec.record('chat', { i: 2 })
    await rec.flush()
    await rec.close()
    expect(fs.readFileSync(moved)).toEqual(theirs)
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([after])
  })
})
