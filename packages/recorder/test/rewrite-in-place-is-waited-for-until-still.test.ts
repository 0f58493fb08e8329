import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import type { RecorderFs } from '../src/util/recorder-fs.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

const FOREIGN = 'name,value\nrow1,1\n'

/**
 * `cat other > transcript` truncates the file, then writes it. A recorder that looks at the file between the
 * two steps sees an empty file; anything it appended then would end up inside their file. The fs seam lets
 * the second step land right after the recorder's look at the empty file, every time.
 */
function secondStepAfterTheLook(filePath: () => string): { fs: RecorderFs; arm: () => void } {
  let armed = false
  const fs$ = fakeFs({
    overrides: {
      fstat: (real) => async (fd) => {
        const stats = await real(fd)
        if (armed && stats.size === 0) {
          armed = false
          // Their write, positional at 0 (not O_APPEND), as cat's after its O_TRUNC.
          const theirs = fs.openSync(filePath(), 'r+')
          fs.writeSync(theirs, FOREIGN, 0)
          fs.closeSync(theirs)
        }
        return stats
      },
    },
  })
  return { fs: fs$, arm: () => (armed = true) }
}

describe("a file rewritten in place is waited for until it is still: nothing of ours lands in the middle of someone else's rewrite", () => {
  it('caught between the truncation and the write of `cat other > file`: never written, the destroyed records counted', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    let path = ''
    const seam = secondStepAfterTheLook(() => path)
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 0,
      fs: seam.fs,
      onError: (error) => errors.push(error),
    })
    path = rec.filePath
    rec.record('first')
    rec.record('second')
    await rec.flush()
    // Their first step: the truncation. The second lands right after the recorder sees the empty file.
    fs.truncateSync(rec.filePath, 0)
    seam.arm()
    rec.record('third')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
    expect(fs.readFileSync(rec.filePath, 'utf8')).toBe(FOREIGN)
    const overwritten = errors.find((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN')
    expect(overwritten?.message).toMatch(/; 2 record\(s\) already written were lost/)
    fs.renameSync(rec.filePath, `${rec.filePath}.theirs`)
    await rec.close()
    expect(fs.readFileSync(`${rec.filePath}.theirs`, 'utf8')).toBe(FOREIGN)
  })

  it('an empty file someone put where ours was (their `cat` made it) is not written before it is still', async () => {
    const dir = await tempDir()
    let path = ''
    const seam = secondStepAfterTheLook(() => path)
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, fs: seam.fs, onError: () => {} })
    path = rec.filePath
    rec.record('first')
    await rec.flush()
    // Ours is moved away; their first step makes the path an empty file (our open does not make it).
    fs.renameSync(rec.filePath, `${rec.filePath}.ours`)
    fs.writeFileSync(rec.filePath, '')
    seam.arm()
    rec.record('second')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(fs.readFileSync(rec.filePath, 'utf8')).toBe(FOREIGN)
    fs.renameSync(rec.filePath, `${rec.filePath}.theirs`)
    await rec.close()
    expect(fs.readFileSync(`${rec.filePath}.theirs`, 'utf8')).toBe(FOREIGN)
    expect(fs.readFileSync(rec.filePath, 'utf8')).toContain('"type":"second"')
  })
})
