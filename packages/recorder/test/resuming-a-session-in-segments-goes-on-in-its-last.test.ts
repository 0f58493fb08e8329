import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder, readSession } from '../src/index.js'
import { CONTINUATION_RECORD_TYPE } from '../src/format/segments.js'
import { writeSegmentedSession } from './helpers/segmented-session.js'
import { tempDir } from './helpers/temp-dir.js'

// A resumed session kept in segments is appended to its last segment, its chain going on from the last
// record of the conversation (never from the continuation record, which hangs beside it); the earlier files
// are not written, and one lock — the session's — covers them all.

describe('resuming a session kept in segments', () => {
  it('appends to the last segment and continues the chain; the earlier files are untouched', async () => {
    const session = await writeSegmentedSession(await tempDir())
    const before = await Promise.all(session.files.map((file) => readFile(file)))
    const rec = createRecorder({ dir: session.dir, sessionId: session.sessionId, resume: true })
    expect(rec.stats().file).toBe(session.files[2])
    expect(rec.filePath).toBe(session.files[0])
    const uuid = rec.record('message', { role: 'user', content: 'golf says user' })
    await rec.close()
    const after = await Promise.all(session.files.map((file) => readFile(file)))
    expect(after[0]).toEqual(before[0])
    expect(after[1]).toEqual(before[1])
    expect(after[2]!.subarray(0, before[2]!.length)).toEqual(before[2])
    const added = JSON.parse(after[2]!.subarray(before[2]!.length).toString()) as Record<string, unknown>
    expect(added).toMatchObject({ uuid, parentUuid: session.uuids.at(-1), sessionId: session.sessionId })
    const read = await readSession(session.files[0]!)
    expect(read.records.filter((r) => r.type !== CONTINUATION_RECORD_TYPE).map((r) => r.uuid)).toEqual([
      ...session.uuids,
      uuid,
    ])
  })

  it('a last segment holding only its continuation: the chain goes on from the record it hangs from', async () => {
    const session = await writeSegmentedSession(await tempDir())
    // Segment 3 keeps only its first line: the continuation, which hangs from record 4.
    const three = await readFile(session.files[2]!, 'utf8')
    const { writeFile } = await import('node:fs/promises')
    await writeFile(session.files[2]!, three.slice(0, three.indexOf('\n') + 1))
    const rec = createRecorder({ dir: session.dir, sessionId: session.sessionId, resume: true })
    const uuid = rec.record('message', { role: 'user', content: 'golf says user' })
    await rec.close()
    const read = await readSession(session.files[2]!)
    expect(read.records.at(-1)).toMatchObject({ uuid, parentUuid: session.uuids[3] })
  })

  it('a link named like a later segment is not followed: the session goes on in its real last segment', async () => {
    const session = await writeSegmentedSession(await tempDir())
    const { symlink, writeFile } = await import('node:fs/promises')
    const elsewhere = `${session.dir}-victim.jsonl`
    await writeFile(
      elsewhere,
      (await readFile(session.files[2]!, 'utf8')).replace(/~3/g, '~9').replace('"segment":3', '"segment":9'),
    )
    const before = await readFile(elsewhere)
    await symlink(elsewhere, `${session.dir}/${session.sessionId}~9.jsonl`)
    const rec = createRecorder({ dir: session.dir, sessionId: session.sessionId, resume: true })
    expect(rec.stats().file).toBe(session.files[2])
    rec.record('message', { role: 'user', content: 'golf says user' })
    await rec.close()
    expect(await readFile(elsewhere)).toEqual(before)
  })
})
