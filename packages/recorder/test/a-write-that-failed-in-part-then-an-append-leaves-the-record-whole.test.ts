import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { nodeFs, type RecorderFs } from '../src/util/recorder-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { wholeRecordUuids } from './helpers/transcript.js'

// Found by the review of stop 40's restart (also on main before it): a write call lands part of its bytes,
// the next call fails (EIO), and before the recorder tries again someone appends an unfinished line. The
// check finds their bytes after ours; the record our write was in the middle of went on after them (after a
// newline), split in two lines: neither whole in the file nor counted. Now the lines the write completed
// stay, and the one it was in the middle of is written again whole after their bytes.

const partial = 'partial line of another tool'
const words = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ')

/** A file system whose next write lands half its bytes, and whose write after that fails after `append`. */
function halfThenFail(append: () => void): { fs: RecorderFs; arm: () => void } {
  let step = 0
  return {
    arm: () => (step = 1),
    fs: {
      ...nodeFs,
      write: async (fd, buffer, offset, length) => {
        if (step === 1) {
          step = 2
          return nodeFs.write(fd, buffer, offset, Math.floor(length / 2))
        }
        if (step === 2) {
          step = 0
          append()
          throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })
        }
        return nodeFs.write(fd, buffer, offset, length)
      },
    },
  }
}

describe('a write that failed in part, then an append, leaves the record whole', () => {
  it.for([
    ['a record written in slices', { text: words }],
    ['a small record', { text: 'small' }],
    ['a chunk of several records', null],
  ] as const)('%s: written again whole after their line, nothing twice', async ([, data]) => {
    const dir = await tempDir()
    let filePath = ''
    const failing = halfThenFail(() => fs.appendFileSync(filePath, partial))
    const errors: RecorderError[] = []
    const rec = createRecorder({
      dir,
      fs: failing.fs,
      maxWriteBytes: 1024,
      fileCheckIntervalMs: 60_000,
      onError: (error) => errors.push(error),
    })
    filePath = rec.filePath
    const before = [0, 1, 2].map((i) => rec.record('chat', { i }))
    await rec.flush()
    failing.arm()
    const raced = data === null ? [3, 4, 5].map((i) => rec.record('chat', { i })) : [rec.record('chat', data)]
    await rec.flush().catch(() => {})
    const after = rec.record('chat', { i: 9 })
    await rec.flush()
    await rec.close()
    expect(errors.map((error) => error.code)).toContain('ERR_RECORDER_WRITE_FAILED')
    expect(wholeRecordUuids(rec.filePath)).toEqual([...before, ...raced, after])
  })
})
