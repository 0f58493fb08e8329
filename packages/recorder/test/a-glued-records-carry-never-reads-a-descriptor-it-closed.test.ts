import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { raceOurNextWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { middleOfLine } from './helpers/transcript.js'

// Found by stop 40's review (also on main before it): a cut raced our write, so a record of it is to be
// written again from the same file (a carry); before that carry was copied, the file was overwritten in
// place by someone else's. The recorder closed the file's descriptor but kept the carry, and the host then
// opened a file of its own under the same number: the carry read the host's file into the transcript and
// closed the host's descriptor. A carry goes with the descriptor it reads from.
describe("a glued record's carry never reads a descriptor the recorder closed", () => {
  it("the file overwritten before the carry: the host's file is neither read nor closed", async () => {
    const dir = await tempDir()
    let filePath = ''
    let overwritten = false
    const codes: string[] = []
    const race = raceOurNextWrite({ before: () => fs.truncateSync(filePath, middleOfLine(filePath, 2)) })
    const rec = createRecorder({
      dir,
      fs: race.fs,
      fileCheckIntervalMs: 60_000,
      onError: (error) => {
        codes.push(error.code)
        // Reported after the check that found the cut, before the carry is copied.
        if (error.code === 'ERR_TRANSCRIPT_TRUNCATED' && !overwritten) {
          overwritten = true
          fs.writeFileSync(filePath, 'FOREIGN FILE, NOT A TRANSCRIPT\n'.repeat(200))
        }
      },
    })
    filePath = rec.filePath
    for (let i = 0; i < 5; i++) rec.record('chat', { i })
    await rec.flush()
    race.arm()
    rec.record('chat', { i: 5 })
    rec.record('chat', { i: 6 })
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    // The host opens a file of its own (the lowest free descriptor number), and the path is freed.
    const hostPath = path.join(dir, 'host-file.txt')
    fs.writeFileSync(hostPath, 'HOST SECRET '.repeat(2000))
    const hostFd = fs.openSync(hostPath, 'r')
    fs.renameSync(filePath, path.join(dir, 'foreign.txt'))
    const last = rec.record('chat', { i: 7 })
    await rec.flush()
    await rec.close()
    expect(codes).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
    const text = fs.readFileSync(filePath, 'utf8')
    expect(text).not.toContain('HOST SECRET')
    expect(text).toContain(last)
    // Still open: fstat would throw EBADF had the recorder closed it.
    expect(fs.fstatSync(hostFd).size).toBe(24_000)
    fs.closeSync(hostFd)
  })
})
