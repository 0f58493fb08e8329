import fs from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

const KiB = 1024
const MAX_WRITE = 64 * KiB
const tick = () => new Promise((resolve) => setImmediate(resolve))

// Records waiting behind a write in flight are encoded ahead of their write, in a task after the caller's
// turn (so they do not stay alive as strings): what reaches the file must be the same bytes, in the same
// order, each write within maxWriteBytes, and the queue's counts the same as before they were encoded.
describe('records queued behind a write in flight are written exactly, in order', () => {
  it('bursts of small records among records holding long strings: byte-exact lines, counts kept, writes bounded', async () => {
    const dir = await tempDir()
    const sizes: number[] = []
    let firstWriteStarted!: () => void
    const started = new Promise<void>((resolve) => (firstWriteStarted = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const seam = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          sizes.push(length)
          if (sizes.length === 1) {
            firstWriteStarted()
            await released
          }
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes: MAX_WRITE })
    await rec.ready()
    const expected: Array<Record<string, unknown>> = [{ first: true }]
    rec.record('first', expected[0])
    await started
    // Held while the first write is in flight: bursts of small records (quotes, non-ASCII, a pair and lone
    // surrogates: bytes that UTF-8 and JSON escaping both change) with a record holding a long string in
    // the middle of each, a few loop turns apart so the queue encodes some runs ahead and not others.
    for (let burst = 0; burst < 6; burst++) {
      for (let i = 0; i < 120; i++) {
        const data =
          i === 60
            ? { burst, base64: String.fromCharCode(65 + burst).repeat(100 * KiB) }
            : { burst, i, text: `turn ${i} "quoted" \\ café 日本 😀 \ud800 ${'x'.repeat(i * 7)}` }
        expected.push(data)
        rec.record(i === 60 ? 'tool_result' : 'chat', data)
      }
      await tick()
      await tick()
    }
    // Then small bursts, each encoded on its own: several of them go out in one write.
    for (let burst = 0; burst < 20; burst++) {
      for (let i = 0; i < 10; i++) {
        const data = { burst, i, text: `small ${i} ✓` }
        expected.push(data)
        rec.record('chat', data)
      }
      await tick()
      await tick()
    }
    // Nothing is written yet (the first write is held): the count covers each line (held strings counted
    // raw, and these need no escaping), the newline included.
    const queued = rec.stats()
    expect(queued.pendingRecords).toBe(expected.length)
    release()
    await rec.flush()
    await rec.close()

    const records = readTranscript(rec.filePath)
    const envelope = new Set(['uuid', 'parentUuid', 'sessionId', 'timestamp', 'type', 'v'])
    const dataOf = (record: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(record).filter(([key]) => !envelope.has(key)))
    expect(records.map(dataOf)).toEqual(expected)
    // The bytes are what JSON.stringify makes (the lone surrogate escaped as \ud800).
    const text = fs.readFileSync(rec.filePath, 'utf8')
    const lines = text.slice(0, -1).split('\n')
    expect(lines.map((line) => `${JSON.stringify(JSON.parse(line))}`)).toEqual(lines)
    expect(queued.pendingChars).toBe(lines.reduce((sum, line) => sum + line.length + 1, 0))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_WRITE)
    expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
  })

  // Chat: no big record ahead, only the write in flight (and the read that checks the file before the next
  // one). The records queued meanwhile are encoded ahead too; the file must not tell.
  it('bursts of small records behind a write in flight, nothing big ahead: byte-exact lines, counts kept, writes bounded', async () => {
    const dir = await tempDir()
    const sizes: number[] = []
    let release: (() => void) | null = null
    const seam = fakeFs({
      overrides: {
        write: (real) => async (fd, buffer, offset, length) => {
          sizes.push(length)
          // Every third write waits a few loop turns: bursts pile up behind it, as behind a slow disk.
          if (sizes.length % 3 === 1) await new Promise<void>((resolve) => (release = resolve))
          return real(fd, buffer, offset, length)
        },
      },
    })
    const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes: MAX_WRITE })
    await rec.ready()
    const expected: Array<Record<string, unknown>> = []
    for (let burst = 0; burst < 40; burst++) {
      for (let i = 0; i < 50; i++) {
        const data = {
          burst,
          i,
          text: `turn ${i} "quoted" \\ café 日本 😀 \udc00 ${'y'.repeat((burst * 13 + i) % 400)}`,
        }
        expected.push(data)
        rec.record(i % 2 === 0 ? 'user' : 'assistant', data)
      }
      if (burst % 4 === 3) {
        ;(release as (() => void) | null)?.()
        release = null
      }
      await tick()
      await tick()
    }
    const flushed = rec.flush()
    // Release the writes still held until the flush is answered.
    while (!(await Promise.race([flushed.then(() => true), tick().then(() => false)]))) {
      ;(release as (() => void) | null)?.()
      release = null
    }
    await rec.close()

    const records = readTranscript(rec.filePath)
    const envelope = new Set(['uuid', 'parentUuid', 'sessionId', 'timestamp', 'type', 'v'])
    const dataOf = (record: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(record).filter(([key]) => !envelope.has(key)))
    expect(records.map(dataOf)).toEqual(expected)
    const text = fs.readFileSync(rec.filePath, 'utf8')
    const lines = text.slice(0, -1).split('\n')
    expect(lines.map((line) => `${JSON.stringify(JSON.parse(line))}`)).toEqual(lines)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_WRITE)
    // Batched: far fewer writes than bursts' worth of records.
    expect(sizes.length).toBeLessThan(expected.length / 10)
    expect(rec.stats()).toMatchObject({ pendingRecords: 0, pendingChars: 0, persisted: expected.length })
  })
})
