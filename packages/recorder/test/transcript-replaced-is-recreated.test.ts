import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './support/fake-fs.js'
import { tempDir } from './support/temp-dir.js'
import { readTranscript } from './support/transcript.js'

describe('a transcript deleted or replaced while open is recreated, and what went into the old file is written again', () => {
  it('deleted: the next write creates a new file at the path instead of filling the unlinked inode', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    const first = rec.record('first')
    await rec.flush()
    await fs.unlink(rec.filePath)

    const second = rec.record('second')
    await rec.flush()
    await rec.close()
    expect(codes).toEqual(['ETRANSCRIPTREPLACED'])
    // `first` was written after the last check of the path, so it is written again: nothing is lost.
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual([first, second])
    expect(records[1]!.parentUuid).toBe(first)
    expect(rec.persisted).toEqual({ uuid: second, count: 2 })
    expect(((await fs.stat(rec.filePath)).mode & 0o777).toString(8)).toBe('600')
  })

  it('replaced by rename: the replacement is appended to, the moved-away file is left alone', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    const first = rec.record('first')
    await rec.flush()
    const moved = `${rec.filePath}.moved`
    await fs.rename(rec.filePath, moved)
    await fs.writeFile(`${rec.filePath}.new`, '')
    await fs.rename(`${rec.filePath}.new`, rec.filePath)

    const second = rec.record('second')
    await rec.close()
    expect(codes).toEqual(['ETRANSCRIPTREPLACED'])
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
    expect(readTranscript(moved).map((r) => r.type)).toEqual(['first'])
  })

  it('with the default interval the check runs at most once per interval, and always before the first write after it', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 50, onError: (error) => codes.push(error.code) })
    const first = rec.record('first')
    await rec.flush()
    await fs.unlink(rec.filePath)
    await new Promise((resolve) => setTimeout(resolve, 80))
    const second = rec.record('second')
    await rec.close()
    expect(codes).toEqual(['ETRANSCRIPTREPLACED'])
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
  })

  it('inside the interval, records go into the deleted file; the check at close() writes them again', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
    })
    const first = rec.record('first')
    await rec.flush()
    await fs.unlink(rec.filePath)
    const second = rec.record('second')
    // Written into the unlinked inode: no check is due yet.
    await rec.flush()
    await expect(fs.stat(rec.filePath)).rejects.toMatchObject({ code: 'ENOENT' })
    await rec.close()
    expect(codes).toEqual(['ETRANSCRIPTREPLACED'])
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
  })

  it('a flushSync() finds a replaced transcript too, and writes everything into the new one', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 60_000, onError: () => {} })
    const first = rec.record('first')
    await rec.flush()
    await fs.unlink(rec.filePath)
    const second = rec.record('second')
    rec.flushSync()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
  })

  it('records written but not yet synced when the file was replaced are written and synced in the new one', async () => {
    const dir = await tempDir()
    const seam = fakeFs()
    const rec = createRecorder({ dir, fs: seam, fileCheckIntervalMs: 0, onError: () => {} })
    rec.record('first')
    // Written (not synced: the default fsync is 'flush' and nobody flushed yet).
    while (rec.stats().persisted < 1) await new Promise((resolve) => setTimeout(resolve, 2))
    expect(seam.calls.fdatasync).toBe(0)
    const moved = `${rec.filePath}.moved`
    await fs.rename(rec.filePath, moved)
    const second = rec.record('second')
    await rec.close()
    // One sync for the bytes carried into the new file, one for close()'s flush.
    expect(seam.calls.fdatasync).toBe(2)
    expect(readTranscript(moved).map((r) => r.type)).toEqual(['first'])
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['first', 'second'])
    expect(readTranscript(rec.filePath)[1]!.uuid).toBe(second)
  })

  it('replaced in the middle of a record split across writes: the new file still gets that record whole', async () => {
    const dir = await tempDir()
    let writes = 0
    let filePath = ''
    const seam = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          const written = await real(fd, buffer, offset, length)
          // After the second slice of the big record, the transcript disappears.
          if (++writes === 3) await fs.unlink(filePath)
          return written
        },
      },
    })
    const rec = createRecorder({
      dir,
      fs: seam,
      maxWriteBytes: 4096,
      fileCheckIntervalMs: 0,
      onError: () => {},
    })
    filePath = rec.filePath
    const small = rec.record('small')
    await rec.flush()
    const big = rec.record('big', { text: 'b'.repeat(20_000) })
    const after = rec.record('after')
    await rec.close()
    const records = readTranscript(rec.filePath)
    // `small` was verified in the old file before the big record began; from the big record's first byte on,
    // everything is carried: the new file starts with that record, whole.
    expect(records.map((r) => r.uuid)).toEqual([big, after])
    expect(records[0]!.parentUuid).toBe(small)
    expect(records.find((r) => r.uuid === big)).toMatchObject({ text: 'b'.repeat(20_000) })
  })
})
