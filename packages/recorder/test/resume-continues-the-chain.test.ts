import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, RECOVERED_RECORD_TYPE } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

async function writeSession(dir: string, sessionId: string, count: number): Promise<string[]> {
  const rec = createRecorder({ dir, sessionId })
  const uuids = Array.from({ length: count }, (_, i) => rec.record('event', { i }))
  await rec.close()
  return uuids
}

describe('resume: true continues the parent chain from the last valid record', () => {
  it('a clean transcript: lastUuid is its last record and the next record is parented on it', async () => {
    const dir = await tempDir()
    const uuids = await writeSession(dir, 'clean', 5)
    const rec = createRecorder({ dir, sessionId: 'clean', resume: true })
    expect(rec.lastUuid).toBe(uuids[4])
    expect(rec.persistedUuid).toBe(uuids[4])
    const next = rec.record('event', { i: 5 })
    await rec.close()
    const records = readTranscript(rec.filePath)
    expect(records.map((r) => r.uuid)).toEqual([...uuids, next])
    expect(records[5]!.parentUuid).toBe(uuids[4])
  })

  it('a torn tail stays where it is, ended by a newline, and a `recovered` record names its bytes', async () => {
    const dir = await tempDir()
    const uuids = await writeSession(dir, 'torn', 3)
    const filePath = `${dir}/torn.jsonl`
    const torn = '{"uuid":"half-written","parentUu'
    const cleanLength = fs.statSync(filePath).size
    fs.appendFileSync(filePath, torn)

    const rec = createRecorder({ dir, sessionId: 'torn', resume: true })
    // The `recovered` record is metadata beside the chain: the chain goes on from the last whole record.
    expect(rec.lastUuid).toBe(uuids[2])
    const next = rec.record('event', { i: 3 })
    await rec.close()

    const lines = fs.readFileSync(filePath, 'utf8').split('\n')
    expect(lines[3]).toBe(torn)
    const records = [lines[4], lines[5]].map((line) => JSON.parse(line!) as Record<string, unknown>)
    expect(records.map((r) => r.type)).toEqual([RECOVERED_RECORD_TYPE, 'event'])
    expect(records[0]).toMatchObject({
      parentUuid: uuids[2],
      reason: 'torn-tail',
      tornOffset: cleanLength,
      tornLength: torn.length,
    })
    expect(records[1]).toMatchObject({ uuid: next, parentUuid: uuids[2] })
    expect(lines[6]).toBe('')
  })

  it('a session that ended with a title continues from the record the title hangs from (metadata is never a parent)', async () => {
    const dir = await tempDir()
    const first = createRecorder({ dir, sessionId: 'titled' })
    const turn = first.record('user', { text: 'hi' })
    first.record('title', { title: 'Greeting' })
    await first.close()
    const rec = createRecorder({ dir, sessionId: 'titled', resume: true })
    expect(rec.lastUuid).toBe(turn)
    const next = rec.record('assistant', { text: 'hello' })
    await rec.close()
    expect(readTranscript(rec.filePath).find((r) => r.uuid === next)?.parentUuid).toBe(turn)
  })

  it('a missing transcript starts a fresh session', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'new-one', resume: true })
    expect(rec.lastUuid).toBeNull()
    rec.record('event')
    await rec.close()
    expect(readTranscript(rec.filePath)[0]!.parentUuid).toBeNull()
  })

  it('resume needs a sessionId', () => {
    expect(() => createRecorder({ dir: '/tmp', resume: true })).toThrow(TypeError)
  })
})
