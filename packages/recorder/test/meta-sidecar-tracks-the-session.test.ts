import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, listSessions, type SessionMeta } from '../src/index.js'
import { metaPathOf } from '../src/format/record-format.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

function readMeta(dir: string, sessionId: string): SessionMeta {
  return JSON.parse(fs.readFileSync(metaPathOf(dir, sessionId), 'utf8')) as SessionMeta
}

describe('the .sessiontape/<sessionId>.meta.json sidecar follows the transcript, off the hot path', () => {
  it('after close it states the count, the last uuid, the first and last record times and the title', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'meta-1' })
    rec.record('user', { text: 'hello' })
    rec.record('title', { title: 'Fixing the flaky test' })
    const last = rec.record('assistant', { text: 'done' })
    await rec.close()
    const records = readTranscript(rec.filePath)
    const meta = readMeta(dir, 'meta-1')
    expect(meta).toEqual({
      sessionId: 'meta-1',
      createdAt: records[0]!.timestamp,
      updatedAt: records[2]!.timestamp,
      recordCount: 3,
      lastUuid: last,
      title: 'Fixing the flaky test',
      v: 1,
    })
    expect(fs.statSync(metaPathOf(dir, 'meta-1')).mode & 0o777).toBe(0o600)
  })

  it('is written after the debounce while the recorder is still open, coalescing changes', async () => {
    const dir = await tempDir()
    await using rec = createRecorder({ dir, sessionId: 'meta-2', metaDebounceMs: 30 })
    for (let i = 0; i < 50; i++) rec.record('event', { i })
    await rec.flush()
    const deadline = Date.now() + 3000
    while (!fs.existsSync(metaPathOf(dir, 'meta-2')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(readMeta(dir, 'meta-2')).toMatchObject({ recordCount: 50, lastUuid: rec.lastUuid })
  })

  it('a resumed session continues the counts of a sidecar that matches its transcript', async () => {
    const dir = await tempDir()
    const first = createRecorder({ dir, sessionId: 'meta-3' })
    first.record('title', { title: 'kept' })
    first.record('event')
    await first.close()
    const createdAt = readMeta(dir, 'meta-3').createdAt

    const resumed = createRecorder({ dir, sessionId: 'meta-3', resume: true })
    const last = resumed.record('event')
    await resumed.close()
    expect(readMeta(dir, 'meta-3')).toMatchObject({
      recordCount: 3,
      lastUuid: last,
      title: 'kept',
      createdAt,
    })
    const [summary] = await listSessions(dir)
    expect(summary).toMatchObject({ sessionId: 'meta-3', recordCount: 3, title: 'kept', lastUuid: last })
  })

  it('a resumed session whose sidecar is corrupt writes no wrong counts; listing rebuilds them', async () => {
    const dir = await tempDir()
    const first = createRecorder({ dir, sessionId: 'meta-4' })
    first.record('event')
    first.record('event')
    await first.close()
    fs.writeFileSync(metaPathOf(dir, 'meta-4'), '{"broken":')

    const resumed = createRecorder({ dir, sessionId: 'meta-4', resume: true })
    const last = resumed.record('event')
    await resumed.close()
    expect(fs.readFileSync(metaPathOf(dir, 'meta-4'), 'utf8')).toBe('{"broken":')
    const [summary] = await listSessions(dir)
    expect(summary).toMatchObject({ sessionId: 'meta-4', recordCount: 3, lastUuid: last })
  })

  it('a sidecar that cannot be written is reported (ERR_RECORDER_META_FAILED) and never holds up close() or the transcript', async () => {
    const dir = await tempDir()
    // A directory where the sidecar should be: every write of it fails.
    fs.mkdirSync(metaPathOf(dir, 'meta-6'), { recursive: true })
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      sessionId: 'meta-6',
      metaDebounceMs: 0,
      onError: (error) => codes.push(error.code),
    })
    const uuid = rec.record('event')
    await rec.flush()
    await rec.close()
    expect(codes.length).toBeGreaterThan(0)
    expect(new Set(codes)).toEqual(new Set(['ERR_RECORDER_META_FAILED']))
    expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([uuid])
  })

  it('meta: false writes no sidecar', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'meta-5', meta: false })
    rec.record('event')
    await rec.close()
    expect(fs.readdirSync(dir).sort()).toEqual(['.sessiontape', 'meta-5.jsonl'])
    expect(fs.readdirSync(path.join(dir, '.sessiontape'))).toEqual([])
  })
})
