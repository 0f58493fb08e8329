import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// Past the 256 MiB window a resume first reads: what a record the recorder itself accepts can reach.
const HUGE = 260 * 1024 * 1024
const CHUNK = 8 * 1024 * 1024

function envelope(uuid: string, parentUuid: string | null, type: string): string {
  return `{"uuid":"${uuid}","parentUuid":${JSON.stringify(parentUuid)},"sessionId":"big","timestamp":"2026-11-25T10:00:00.000Z","type":"${type}","v":1`
}

/** Appends `bytes` filler bytes of `x` to the open file, in chunks (never one huge string). */
function appendFiller(fd: number, bytes: number): void {
  const chunk = Buffer.alloc(CHUNK, 'x')
  for (let left = bytes; left > 0; left -= CHUNK) fs.writeSync(fd, chunk, 0, Math.min(CHUNK, left))
}

function lastLines(filePath: string, count: number): Array<Record<string, unknown>> {
  const size = fs.statSync(filePath).size
  const fd = fs.openSync(filePath, 'r')
  const buffer = Buffer.alloc(Math.min(64 * 1024, size))
  fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length)
  fs.closeSync(fd)
  const lines = buffer.toString('utf8').split('\n').slice(0, -1)
  return lines.slice(-count).map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('resume reads back as far as it must to find the last complete record (never a silent new root)', () => {
  it('a last record of 260 MiB: the chain goes on from it', async () => {
    const dir = await tempDir()
    const filePath = path.join(dir, 'big.jsonl')
    const fd = fs.openSync(filePath, 'w')
    fs.writeSync(fd, `${envelope('u1', null, 'user')},"text":"hi"}\n`)
    fs.writeSync(fd, `${envelope('u2', 'u1', 'tool_result')},"blob":"`)
    appendFiller(fd, HUGE)
    fs.writeSync(fd, '"}\n')
    fs.closeSync(fd)

    const rec = createRecorder({ dir, sessionId: 'big', resume: true })
    expect(rec.lastUuid).toBe('u2')
    const next = rec.record('assistant', { text: 'after the big one' })
    await rec.close()
    expect(lastLines(filePath, 1)).toEqual([expect.objectContaining({ uuid: next, parentUuid: 'u2' })])
  }, 120_000)

  it('a torn tail of 260 MiB: named by a recovered record, and the chain goes on from the record before it', async () => {
    const dir = await tempDir()
    const filePath = path.join(dir, 'big.jsonl')
    const fd = fs.openSync(filePath, 'w')
    fs.writeSync(fd, `${envelope('u1', null, 'user')},"text":"hi"}\n`)
    const tornAt = fs.fstatSync(fd).size
    fs.writeSync(fd, `${envelope('u2', 'u1', 'tool_result')},"blob":"`)
    appendFiller(fd, HUGE)
    const size = fs.fstatSync(fd).size
    fs.closeSync(fd)

    const rec = createRecorder({ dir, sessionId: 'big', resume: true })
    expect(rec.lastUuid).not.toBeNull()
    const next = rec.record('assistant', { text: 'after the crash' })
    await rec.close()
    const [recovered, after] = lastLines(filePath, 2)
    expect(recovered).toMatchObject({
      type: 'recovered',
      parentUuid: 'u1',
      tornOffset: tornAt,
      tornLength: size - tornAt,
    })
    expect(after).toMatchObject({ uuid: next, parentUuid: 'u1' })
  }, 120_000)

  it('a small transcript is unchanged by this: the first window finds its last record', async () => {
    const dir = await tempDir()
    const first = createRecorder({ dir, sessionId: 'big' })
    const last = first.record('user', { text: 'hello' })
    await first.close()
    const rec = createRecorder({ dir, sessionId: 'big', resume: true })
    expect(rec.lastUuid).toBe(last)
    await rec.close()
    expect(readTranscript(rec.filePath)).toHaveLength(1)
  })
})
