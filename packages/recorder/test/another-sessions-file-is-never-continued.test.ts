import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe("another session's transcript put at the path is never written: two sessions never mix in one file", () => {
  it('renamed over the open transcript: ERR_FOREIGN_FILE, the records stay queued, and go to a new file once it is moved away', async () => {
    const dir = await tempDir()
    const other = createRecorder({ dir, sessionId: 'other-session', onError: () => {} })
    other.record('theirs')
    await other.close()
    const otherBytes = await fs.readFile(other.filePath)

    const codes: string[] = []
    const rec = createRecorder({
      dir,
      sessionId: 'mine',
      fileCheckIntervalMs: 0,
      onError: (error) => codes.push(error.code),
    })
    rec.record('first')
    await rec.flush()
    await fs.copyFile(other.filePath, path.join(dir, 'tmp'))
    await fs.rename(path.join(dir, 'tmp'), rec.filePath)
    rec.record('second')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
    expect(await fs.readFile(rec.filePath)).toEqual(otherBytes)
    await fs.rename(rec.filePath, path.join(dir, 'moved-away.jsonl'))
    await rec.close()
    expect(await fs.readFile(path.join(dir, 'moved-away.jsonl'))).toEqual(otherBytes)
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['second'])
    expect(readTranscript(rec.filePath).every((r) => r.sessionId === 'mine')).toBe(true)
  })

  it('at the path before the recorder opens it: never written, ERR_FOREIGN_FILE from ready()', async () => {
    const dir = await tempDir()
    const other = createRecorder({ dir, sessionId: 'other-session', onError: () => {} })
    other.record('theirs')
    await other.close()
    await fs.copyFile(other.filePath, path.join(dir, 'mine.jsonl'))
    const before = await fs.readFile(path.join(dir, 'mine.jsonl'))
    const rec = createRecorder({ dir, sessionId: 'mine', onError: () => {} })
    rec.record('first')
    await expect(rec.ready()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(await fs.readFile(rec.filePath)).toEqual(before)
    await fs.unlink(rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['first'])
  })
})
