import { describe, expect, it } from 'vitest'

import { createRecorder, InvalidRecordError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

describe('observability: stats()', () => {
  it('counts recorded, persisted, pending, writes, fsyncs and the largest batch', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir })
    expect(rec.stats()).toEqual({
      recorded: 0,
      persisted: 0,
      pendingRecords: 0,
      pendingChars: 0,
      pendingBytes: 0,
      heldChars: 0,
      writes: 0,
      bytesWritten: 0,
      fsyncs: 0,
      retries: 0,
      errors: 0,
      maxBatchRecords: 0,
      overflowEvents: 0,
      file: rec.filePath,
    })
    for (let i = 0; i < 10; i++) rec.record('event', { i })
    const queued = rec.stats()
    expect(queued).toMatchObject({ recorded: 10, persisted: 0, pendingRecords: 10 })
    expect(queued.pendingChars).toBeGreaterThan(10 * 50)
    await rec.flush()
    const done = rec.stats()
    expect(done).toMatchObject({ recorded: 10, persisted: 10, pendingRecords: 0, pendingChars: 0, fsyncs: 1 })
    expect(done.writes).toBeGreaterThanOrEqual(1)
    expect(done.maxBatchRecords).toBe(10)
    await rec.close()
    const { size } = await import('node:fs').then((fs) => fs.statSync(rec.filePath))
    expect(rec.stats().bytesWritten).toBe(size)
  })

  it('pendingBytes is the deprecated name of pendingChars: the same count of UTF-16 code units, not bytes', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    await rec.ready()
    // 'é' is one code unit and two UTF-8 bytes: a count of bytes would be 2,000 more.
    rec.record('event', { text: 'é'.repeat(2_000) })
    const queued = rec.stats()
    expect(queued.pendingChars).toBeGreaterThan(2_000)
    expect(queued.pendingChars).toBeLessThan(2_000 + 300)
    expect(queued.pendingBytes).toBe(queued.pendingChars)
    await rec.flush()
    expect(rec.stats()).toMatchObject({ pendingChars: 0, pendingBytes: 0 })
    await rec.close()
  })
})

describe('redact(record): applied before serialization', () => {
  it('receives a private deep copy of the record and returns what is written; the envelope cannot change', async () => {
    const dir = await tempDir()
    const seen: unknown[] = []
    const rec = createRecorder({
      dir,
      redact: (record) => {
        seen.push(structuredClone(record))
        const headers = record.headers as Record<string, string> | undefined
        if (headers?.authorization) headers.authorization = '[redacted]'
        return { ...record, uuid: 'forged', type: 'forged', apiKey: undefined }
      },
    })
    const data = { headers: { authorization: 'Bearer secret', accept: 'json' }, apiKey: 'sk-123', text: 'hi' }
    const uuid = rec.record('request', data)
    await rec.close()
    // The caller's object is untouched; the hook saw the full record.
    expect(data.headers.authorization).toBe('Bearer secret')
    expect(seen[0]).toMatchObject({ uuid, type: 'request', headers: { authorization: 'Bearer secret' } })
    const [written] = readTranscript(rec.filePath)
    expect(written).toMatchObject({
      uuid,
      type: 'request',
      headers: { authorization: '[redacted]', accept: 'json' },
    })
    expect(written).not.toHaveProperty('apiKey')
    expect(JSON.stringify(written)).not.toContain('secret')
  })

  it('a redact hook that throws makes record() throw InvalidRecordError and changes nothing', async () => {
    const dir = await tempDir()
    const rec = createRecorder({
      dir,
      redact: (record) => {
        if (record.type === 'bad') throw new Error('cannot redact')
        return record
      },
    })
    const ok = rec.record('good')
    expect(() => rec.record('bad')).toThrow(InvalidRecordError)
    expect(rec.lastUuid).toBe(ok)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['good'])
  })
})
