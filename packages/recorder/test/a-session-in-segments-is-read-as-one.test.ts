import { rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { activeBranch, listSessions, readSession, streamRecords } from '../src/index.js'
import { scanTranscript } from '../src/internal.js'
import { CONTINUATION_RECORD_TYPE, segmentFileName } from '../src/format/segments.js'
import { FORMAT_VERSION } from '../src/format/record-format.js'
import { writeSegmentedSession } from './helpers/segmented-session.js'
import { tempDir } from './helpers/temp-dir.js'

// A session may span its path and segments `<id>~<n>.jsonl` (format/segments.ts). Every reader reads them as
// one session, each record once — a record a continuation carried again is read where it first appears.

const conversation = (records: readonly { type: string; uuid: string }[]): string[] =>
  records.filter((record) => record.type !== CONTINUATION_RECORD_TYPE).map((record) => record.uuid)

describe('a session kept in segments', () => {
  it('readSession of the path, or of any segment, reads every file once, in order', async () => {
    const session = await writeSegmentedSession(await tempDir())
    for (const file of session.files) {
      const read = await readSession(file)
      expect(read.files).toEqual(session.files)
      expect(conversation(read.records)).toEqual(session.uuids)
      expect(read.records.filter((record) => record.type === CONTINUATION_RECORD_TYPE)).toHaveLength(2)
      expect(read.problems).toEqual([])
      // The continuation records hang beside the chain: the active branch ends at the last turn.
      expect(read.lastUuid).toBe(session.uuids.at(-1))
      expect(activeBranch(read.records).records.map((record) => record.uuid)).toEqual(session.uuids)
    }
  })

  it('streamRecords and scanTranscript agree with readSession', async () => {
    const session = await writeSegmentedSession(await tempDir())
    const streamed: { type: string; uuid: string }[] = []
    for await (const record of streamRecords(session.files[0]!)) streamed.push(record)
    expect(conversation(streamed)).toEqual(session.uuids)
    const scan = await scanTranscript(session.files[1]!)
    expect(scan.files).toEqual(session.files)
    expect(scan.records).toBe(session.uuids.length + 2)
    expect(scan.problemCount).toBe(0)
  })

  it('listSessions shows one row for the session, with every file', async () => {
    const session = await writeSegmentedSession(await tempDir())
    const rows = await listSessions(session.dir)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      sessionId: session.sessionId,
      filePath: session.files[0],
      segments: session.files,
      recordCount: session.uuids.length + 2,
    })
  })

  it('with its path deleted, the session is its segments: listed once, read from the first', async () => {
    const session = await writeSegmentedSession(await tempDir())
    await rm(session.files[0]!)
    const rows = await listSessions(session.dir)
    expect(rows.map((row) => [row.sessionId, row.filePath, row.segments])).toEqual([
      [session.sessionId, session.files[1], session.files.slice(1)],
    ])
    const read = await readSession(session.files[2]!)
    expect(read.files).toEqual(session.files.slice(1))
    expect(conversation(read.records)).toEqual(session.uuids.slice(1))
  })

  it('a file is a segment by its first line, not its name', async () => {
    const session = await writeSegmentedSession(await tempDir())
    // Named like segment 4, but its first line is an ordinary record: not a file of the session.
    const decoy = path.join(session.dir, segmentFileName(session.sessionId, 4))
    await writeFile(
      decoy,
      `${JSON.stringify({
        uuid: 'decoy-1',
        parentUuid: null,
        sessionId: session.sessionId,
        timestamp: '2026-11-28T11:00:00.000Z',
        type: 'message',
        v: FORMAT_VERSION,
        content: 'not a continuation',
      })}\n`,
    )
    const read = await readSession(session.files[0]!)
    expect(read.files).toEqual(session.files)
    expect(read.records.map((record) => record.uuid)).not.toContain('decoy-1')
    // Read on its own, it is itself and nothing more.
    expect((await readSession(decoy)).files).toEqual([decoy])
  })

  it('a record repeated outside what a continuation carried is still a duplicate-uuid problem', async () => {
    const session = await writeSegmentedSession(await tempDir())
    const first = (await readSession(session.files[0]!)).records[0]!
    await writeFile(session.files[2]!, `${JSON.stringify(first)}\n`, { flag: 'a' })
    const read = await readSession(session.files[0]!)
    expect(read.problems.map((problem) => [problem.kind, problem.file])).toEqual([
      ['duplicate-uuid', undefined],
    ])
  })

  it("a path holding someone else's file is no file of the session: the segments are read, and listed, without it", async () => {
    const session = await writeSegmentedSession(await tempDir())
    // An editor's save of unrelated notes at the path (the `replaced` case of the contract).
    await writeFile(session.files[0]!, 'my notes\n')
    const read = await readSession(session.files[1]!)
    expect(read.files).toEqual(session.files.slice(1))
    // The first record went with the path's old content: the one it was the parent of says so.
    expect(read.problems.map((problem) => problem.kind)).toEqual(['orphan'])
    const rows = await listSessions(session.dir)
    // One row for the session, from its first segment; the notes at the path are a file of their own.
    const segmented = rows.filter((r) => r.segments !== undefined)
    expect(segmented.map((r) => [r.sessionId, r.filePath, r.segments])).toEqual([
      [session.sessionId, session.files[1], session.files.slice(1)],
    ])
  })

  it("another session's transcript at the path is never stitched into this one", async () => {
    const session = await writeSegmentedSession(await tempDir())
    await writeFile(
      session.files[0]!,
      `${JSON.stringify({
        uuid: 'other-1',
        parentUuid: null,
        sessionId: 'other-session',
        timestamp: '2026-11-28T11:00:00.000Z',
        type: 'user',
        v: FORMAT_VERSION,
        text: 'tango',
      })}\n`,
    )
    const read = await readSession(session.files[2]!)
    expect(read.files).toEqual(session.files.slice(1))
    expect(read.records.map((record) => record.sessionId)).not.toContain('other-session')
  })
})
