import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { nodeFs, type RecorderFs } from '../src/util/recorder-fs.js'
import { tempDir } from './helpers/temp-dir.js'

// Found by stop 40's review: after a cut, the recorder looks for its last write call in the file (a record
// of it may be glued to the cut line). That call was a slice of a big record of repeated bytes, whose first
// bytes occur at every offset: the search read the file a million times (17 s) before writing on. A write
// that did not begin a record is not looked for.
describe('a cut into a big record of repeated bytes is checked in a few reads', () => {
  it.for([
    ['written in 1 KiB calls', { maxWriteBytes: 1024 }],
    ['written in the default 4 MiB calls', {}],
  ] as const)('%s: the next record is written after a bounded number of reads', async ([, options]) => {
    const dir = await tempDir()
    let reads = 0
    const counting: RecorderFs = {
      ...nodeFs,
      read: (fd, buffer, offset, length, position) => {
        reads++
        return nodeFs.read(fd, buffer, offset, length, position)
      },
    }
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fs: counting,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
      ...options,
    })
    rec.record('chat', { i: 0 })
    rec.record('chat', { text: 'a'.repeat(5 * 1024 * 1024) })
    await rec.flush()
    fs.truncateSync(rec.filePath, fs.statSync(rec.filePath).size - 2 * 1024 * 1024)
    reads = 0
    const after = rec.record('chat', { i: 2 })
    await rec.flush()
    await rec.close()
    expect(codes).toEqual(['ERR_TRANSCRIPT_TRUNCATED'])
    expect(fs.readFileSync(rec.filePath, 'utf8')).toContain(after)
    expect(reads).toBeLessThan(1000)
  })
})
