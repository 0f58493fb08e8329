import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const FOREIGN = 'name,value\nsecret,42\n'

function foreignOfSize(size: number): string {
  // A CSV line per 20 bytes, padded to exactly `size` bytes, ending with a newline.
  const body = 'x'.repeat(Math.max(size - FOREIGN.length - 1, 0))
  return `${FOREIGN}${body}\n`.slice(0, size)
}

describe('a transcript overwritten in place (same file, other bytes) is told apart from one left as we wrote it', () => {
  for (const shape of ['smaller', 'same size', 'larger'] as const) {
    it(`overwritten with foreign bytes (${shape}): never written again, the destroyed records are counted, flush() rejects, the records stay queued`, async () => {
      const dir = await tempDir()
      const errors: RecorderError[] = []
      const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
      rec.record('first')
      rec.record('second')
      await rec.flush()
      const size = (await fs.stat(rec.filePath)).size
      const foreign = foreignOfSize(shape === 'smaller' ? 40 : shape === 'same size' ? size : size + 500)
      // `cat other > transcript`: the same inode, its bytes replaced.
      const handle = await fs.open(rec.filePath, 'r+')
      await handle.truncate(0)
      await handle.write(foreign, 0)
      await handle.close()

      rec.record('third')
      await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
      expect(await fs.readFile(rec.filePath, 'utf8')).toBe(foreign)
      const overwritten = errors.find((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN')
      expect(overwritten?.message).toMatch(/2 record\(s\) already written were lost/)
      // Moved out of the way, the session goes on in a new file with the record still queued.
      await fs.rename(rec.filePath, `${rec.filePath}.theirs`)
      await rec.close()
      expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['third'])
      expect(await fs.readFile(`${rec.filePath}.theirs`, 'utf8')).toBe(foreign)
    })
  }

  it('overwritten with the same bytes count but one record changed: reported, not taken for our file', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => codes.push(error.code) })
    rec.record('first', { text: 'aaaa' })
    await rec.flush()
    const text = await fs.readFile(rec.filePath, 'utf8')
    // Same size, same inode, the end of the line changed: size and inode alone would call this untouched.
    const handle = await fs.open(rec.filePath, 'r+')
    await handle.write('bbbb"}\n', text.length - 7)
    await handle.close()
    rec.record('second')
    await rec.flush()
    await rec.close()
    expect(codes).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
  })

  it('rewritten in place with an older copy of itself: the records it lacks are counted as lost, writing goes on after its last record', async () => {
    const dir = await tempDir()
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, fileCheckIntervalMs: 0, onError: (error) => errors.push(error) })
    const uuids: string[] = []
    for (let i = 0; i < 10; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    const older = await fs.readFile(rec.filePath)
    for (let i = 10; i < 15; i++) uuids.push(rec.record('chat', { i }))
    await rec.flush()
    // `cat older notes > transcript`: longer than what we wrote, so no size tells it from an append.
    const notes = `${'# a note that is not a record '.repeat(40)}\n`
    await fs.writeFile(rec.filePath, Buffer.concat([older, Buffer.from(notes)]))
    const next = rec.record('chat', { i: 15 })
    await rec.flush()
    await rec.close()
    const report = errors.find((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN')
    expect(report?.message).toMatch(/ending at .*; 5 record\(s\) already written were lost/)
    const lines = (await fs.readFile(rec.filePath, 'utf8')).split('\n')
    // The older copy's records, the notes line, then the new record.
    expect(lines.slice(0, 10).map((line) => (JSON.parse(line) as { uuid: string }).uuid)).toEqual(
      uuids.slice(0, 10),
    )
    expect(JSON.parse(lines[11]!)).toMatchObject({ uuid: next })
  })
})

describe('between two path checks (the default fileCheckIntervalMs)', () => {
  it('a file overwritten in place with foreign bytes of the same size is never written, even before the next periodic check', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
    })
    rec.record('first')
    await rec.flush()
    const size = (await fs.stat(rec.filePath)).size
    const foreign = foreignOfSize(size)
    const handle = await fs.open(rec.filePath, 'r+')
    await handle.write(foreign, 0)
    await handle.close()
    rec.record('second')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(await fs.readFile(rec.filePath, 'utf8')).toBe(foreign)
    expect(codes).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
    await fs.unlink(rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['second'])
  })

  // The read before each write compares the file's first line too, not only the bytes at its end: an
  // overwrite in place that leaves the end as it was (`dd conv=notrunc` over the start, or a `cat other >
  // file` that raced our last write with `other` exactly as long as the file was) shows only there.
  it('a file whose start is overwritten in place, its end left as we wrote it, is never written, even before the next periodic check', async () => {
    const dir = await tempDir()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      fileCheckIntervalMs: 60_000,
      onError: (error) => codes.push(error.code),
    })
    rec.record('first')
    rec.record('kept-last', { text: 'the bytes at the end stay ours' })
    await rec.flush()
    const before = await fs.readFile(rec.filePath, 'utf8')
    const firstLine = before.slice(0, before.indexOf('\n') + 1)
    // Their bytes over our first line only, same length: the file keeps its size and its last bytes.
    const theirs = foreignOfSize(firstLine.length)
    const handle = await fs.open(rec.filePath, 'r+')
    await handle.write(theirs, 0)
    await handle.close()
    const overwritten = await fs.readFile(rec.filePath, 'utf8')
    expect(overwritten.length).toBe(before.length)
    expect(overwritten.slice(-64)).toBe(before.slice(-64))
    rec.record('second')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    expect(await fs.readFile(rec.filePath, 'utf8')).toBe(overwritten)
    expect(codes).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
    await fs.unlink(rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['second'])
  })
})
