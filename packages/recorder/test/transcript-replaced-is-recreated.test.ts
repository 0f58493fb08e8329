import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

async function written(rec: { stats(): { persisted: number } }, count: number): Promise<void> {
  while (rec.stats().persisted < count) await new Promise((resolve) => setTimeout(resolve, 2))
}

describe('a transcript deleted, renamed, replaced or truncated while open: reported, continued at the path, never a record twice', () => {
  it('deleted after a flush: the next record creates a new file at the path; what flush() had confirmed there is not written again', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    const first = rec.record('first')
    await rec.flush()
    await fs.unlink(rec.filePath)

    const second = rec.record('second')
    await rec.flush()
    await rec.close()
    expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual([second])
    expect(records[0]!.parentUuid).toBe(first)
    expect(rec.persisted).toEqual({ uuid: second, count: 2 })
    expect(((await fs.stat(rec.filePath)).mode & 0o777).toString(8)).toBe('600')
  })

  it('flush() resolves only once its records are at the path: deleted before the flush, they are copied into a new file', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
    })
    const first = rec.record('first')
    await written(rec, 1)
    // Written into the file, not yet confirmed at the path by any flush: then the file is deleted.
    await fs.unlink(rec.filePath)
    const second = rec.record('second')
    await rec.flush()
    // No waiting for the next periodic check: flush() itself checked, found the path empty and carried.
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
    expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
  })

  it('renamed away and replaced by an empty file: the replacement gets the unconfirmed records, the moved file is left alone', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    // Checked before every write, so not a record goes into the moved file after the rename.
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    const first = rec.record('first')
    await written(rec, 1)
    const moved = `${rec.filePath}.moved`
    await fs.rename(rec.filePath, moved)
    await fs.writeFile(`${rec.filePath}.new`, '')
    await fs.rename(`${rec.filePath}.new`, rec.filePath)

    const second = rec.record('second')
    await rec.close()
    expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
    expect(readTranscript(moved).map((r) => r.type)).toEqual(['first'])
  })

  it('replaced by a copy of itself (copy + rename, as editors and sync tools do): every record is there exactly once', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
    })
    const uuids: string[] = []
    for (let i = 0; i < 200; i++) uuids.push(rec.record('chat', { i }))
    await written(rec, 200)
    // The copy holds all 200; none of them was confirmed at the path yet.
    await fs.copyFile(rec.filePath, `${rec.filePath}.tmp`)
    await fs.rename(`${rec.filePath}.tmp`, rec.filePath)
    for (let i = 200; i < 300; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    await rec.close()
    expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('replaced by an older copy: the records the copy lacks are written after its last one, none twice', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 60_000, onError: () => {} })
    const uuids: string[] = []
    for (let i = 0; i < 50; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    const stale = await fs.readFile(rec.filePath)
    for (let i = 50; i < 80; i++) uuids.push(rec.record('chat', { i }))
    await written(rec, 80)
    // A sync tool puts back the copy it took before the last 30 records.
    await fs.writeFile(`${rec.filePath}.tmp`, stale)
    await fs.rename(`${rec.filePath}.tmp`, rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual(uuids)
  })

  it('truncated: reported with the count of records lost, and writing goes on at the end on a line of its own', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    rec.record('first')
    await rec.flush()
    rec.record('second')
    await rec.flush()
    const size = (await fs.stat(rec.filePath)).size
    // Cut inside the second record.
    await fs.truncate(rec.filePath, size - 10)
    const third = rec.record('third')
    await rec.flush()
    await rec.close()
    expect(errors.map((error) => error.code)).toEqual(['ERR_TRANSCRIPT_TRUNCATED'])
    expect(errors[0]!.message).toMatch(/1 record\(s\) already written were lost/)
    const lines = (await fs.readFile(rec.filePath, 'utf8')).split('\n')
    expect(lines).toHaveLength(4)
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'first' })
    expect(() => JSON.parse(lines[1]!) as unknown).toThrow()
    expect(JSON.parse(lines[2]!)).toMatchObject({ uuid: third })
  })

  it('a file that is not ours put at the path is never written: ERR_FOREIGN_FILE, flush() rejects, the records stay queued', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    rec.record('first')
    await rec.flush()
    const foreign = 'name,value\nsecret,42\n'
    await fs.writeFile(`${rec.filePath}.tmp`, foreign)
    await fs.rename(`${rec.filePath}.tmp`, rec.filePath)
    rec.record('second')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
    expect(await fs.readFile(rec.filePath, 'utf8')).toBe(foreign)
    expect(codes).toContain('ERR_FOREIGN_FILE')
    // Put back out of the way, the session goes on in a new file.
    await fs.unlink(rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['second'])
  })

  it('a flushSync() finds a replaced transcript too, and writes what the path lacks into the new one', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, fileCheckIntervalMs: 60_000, onError: () => {} })
    const first = rec.record('first')
    await written(rec, 1)
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
    // close()'s flush carries `first` into the new file, writes `second`, and one sync covers both.
    expect(seam.calls.fdatasync).toBe(1)
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
