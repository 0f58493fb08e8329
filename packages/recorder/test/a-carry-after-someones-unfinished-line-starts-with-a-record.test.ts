import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, readSession } from '../src/index.js'
import { raceOurNextWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// Someone appends an unfinished line; the recorder sees it, and its next write begins with the newline that
// ends their line (ours start on a line of their own). The file is moved away right after that newline, before
// the recorder looks again: what the path lacks is carried into the new file. That newline ended *their*
// line: carried, it would make the new file start with an empty line, and a file whose first line is not a
// record of ours is one the recorder refuses to open again (resume, or any reopen): it must not be copied.
describe("a carry from a file someone's unfinished line ended starts the new file with a record", () => {
  it('the new file starts with our record, reads back with no problem, and resumes', async () => {
    const dir = await tempDir()
    const moved = path.join(dir, 'moved-away.jsonl')
    let filePath = ''
    const racing = raceOurNextWrite({ after: () => fs.renameSync(filePath, moved) })
    const rec = createRecorder({ dir, fileCheckIntervalMs: 60_000, fs: racing.fs, onError: () => {} })
    filePath = rec.filePath
    rec.record('chat', { i: 0 })
    await rec.flush()
    fs.appendFileSync(filePath, 'partial line of another tool')
    racing.arm()
    const second = rec.record('chat', { i: 1 })
    await rec.flush()
    await rec.close()

    expect(fs.readFileSync(moved, 'utf8')).toMatch(/\npartial line of another tool\n\{"uuid":"/)
    expect(fs.readFileSync(rec.filePath, 'utf8')).toMatch(/^\{"uuid":"/)
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([second])
    // Its first record names a parent the moved file holds (README guarantee 7's first row): an orphan, nothing else.
    expect((await readSession(rec.filePath)).problems.map((problem) => problem.kind)).toEqual(['orphan'])
    const resumed = createRecorder({ dir, sessionId: rec.sessionId, resume: true })
    await resumed.ready()
    const third = resumed.record('chat', { i: 2 })
    await resumed.close()
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([second, third])
  })

  it('moved away after the check that saw their line, before our next write: the new file starts with our record', async () => {
    const dir = await tempDir()
    const moved = path.join(dir, 'moved-away.jsonl')
    let filePath = ''
    // Their unfinished line lands right after our write; the next check (before flush() resolves) sees it,
    // and nothing of ours is written after it before the file is moved away.
    const racing = raceOurNextWrite({
      after: () => fs.appendFileSync(filePath, 'partial line of another tool'),
    })
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, fs: racing.fs, onError: () => {} })
    filePath = rec.filePath
    rec.record('chat', { i: 0 })
    await rec.flush()
    racing.arm()
    rec.record('chat', { i: 1 })
    await rec.flush()
    fs.renameSync(filePath, moved)
    const third = rec.record('chat', { i: 2 })
    await rec.flush()
    await rec.close()

    expect(fs.readFileSync(moved, 'utf8')).toMatch(/\}\npartial line of another tool$/)
    expect(fs.readFileSync(rec.filePath, 'utf8')).toMatch(/^\{"uuid":"/)
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([third])
    const resumed = createRecorder({ dir, sessionId: rec.sessionId, resume: true })
    await resumed.ready()
    const fourth = resumed.record('chat', { i: 3 })
    await resumed.close()
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([third, fourth])
  })
})
