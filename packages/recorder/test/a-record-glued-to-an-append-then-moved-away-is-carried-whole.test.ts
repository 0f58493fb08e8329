import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { recorderWithARacedWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('a record glued to an unfinished line someone appended, in a file then moved away, is carried whole', () => {
  it('the new file gets the record whole, never their bytes; the moved file keeps them', async () => {
    const dir = await tempDir()
    const moved = path.join(dir, 'moved-away.jsonl')
    // The race, made to happen at a known moment with real file operations: another tool appends an
    // unfinished line just after the recorder's last look at the file and before its write lands; then the
    // file is moved away before the recorder checks it again.
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.appendFileSync(filePath, 'partial line of another tool'),
      after: () => fs.renameSync(filePath, moved),
    }))
    const first = rec.record('chat', { i: 0 })
    await rec.flush()
    arm()
    const glued = rec.record('chat', { i: 1 })
    await rec.flush()
    const after = rec.record('chat', { i: 2 })
    await rec.flush()
    await rec.close()

    // The moved file: our first record, then their line with our record glued to it (as it happened).
    const movedText = fs.readFileSync(moved, 'utf8')
    expect(movedText.split('\n')[1]).toMatch(/^partial line of another tool\{"uuid":"/)
    expect(movedText.split('\n')[0]).toContain(first)
    // The file at the path: the glued record whole, on a line of its own, then the next; none of their bytes.
    expect(fs.readFileSync(rec.filePath, 'utf8')).not.toContain('partial line')
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([glued, after])
    expect(errors.map((error) => error.code)).toContain('ERR_TRANSCRIPT_REPLACED')
  })
})
