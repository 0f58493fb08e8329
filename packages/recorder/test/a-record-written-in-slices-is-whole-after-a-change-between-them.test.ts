import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { raceOurNextWrites, reportedLost } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { wholeRecordUuids } from './helpers/transcript.js'

// A record bigger than one write call (past `maxWriteBytes`: 4 MiB by default, 1 KiB here) is written in
// slices, the file checked before each. Found at the end of stop 40 (also on main before it): when that check
// found the file changed between two slices, the slices already written were left as they were and the rest
// went on after the change, so the record was neither whole in the file nor counted, and flush() resolved.
// The record is still whole in the queue until its last slice: it is written again from its first
// character, on a line of its own (the partial line stays, as everything written does).

const partial = 'partial line of another tool'
// Text that does not repeat, and text that does (the check knows our last bytes by their content: a slice
// of repeated bytes moved on by someone's bytes before it looks as it was).
const words = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ')
const repeated = 'b'.repeat(3000)

/**
 * Records 0–2, then a big record whose first slice is followed by `change` (once it has landed), then one
 * more record. The recorder is closed; its errors are collected.
 */
async function changeAfterTheFirstSlice(
  text: string,
  change: { before?: (filePath: string) => void; after?: (filePath: string) => void },
) {
  const dir = await tempDir()
  let filePath = ''
  const race = raceOurNextWrites([
    { before: () => change.before?.(filePath), after: () => change.after?.(filePath) },
  ])
  const errors: RecorderError[] = []
  const rec = createRecorder({
    dir,
    fs: race.fs,
    maxWriteBytes: 1024,
    fileCheckIntervalMs: 60_000,
    onError: (error) => errors.push(error),
  })
  filePath = rec.filePath
  const before = [0, 1, 2].map((i) => rec.record('chat', { i }))
  await rec.flush()
  race.arm()
  const big = rec.record('chat', { text })
  await rec.flush().catch(() => {})
  const after = rec.record('chat', { i: 4 })
  return { dir, rec, errors, before, big, after }
}

describe('a record written in slices is whole after a change between two of them', () => {
  it('cut between two slices: written again whole after the cut; only what the cut took is lost', async () => {
    const { rec, errors, before, big, after } = await changeAfterTheFirstSlice(words, {
      after: (filePath) => fs.truncateSync(filePath, fs.statSync(filePath).size - 500),
    })
    await rec.flush()
    await rec.close()
    expect(wholeRecordUuids(rec.filePath)).toEqual([...before, big, after])
    expect(reportedLost(errors)).toBe(0)
  })

  it.for([
    ['text that does not repeat', words],
    ['repeated bytes', repeated],
  ] as const)('an unfinished line appended between two slices (%s): the same', async ([, text]) => {
    const { rec, before, big, after } = await changeAfterTheFirstSlice(text, {
      after: (filePath) => fs.appendFileSync(filePath, partial),
    })
    await rec.flush()
    await rec.close()
    expect(wholeRecordUuids(rec.filePath)).toEqual([...before, big, after])
  })

  it('an unfinished line appended just before a slice of repeated bytes (a race): the same', async () => {
    const { rec, before, big, after } = await changeAfterTheFirstSlice(repeated, {
      before: (filePath) => fs.appendFileSync(filePath, partial),
    })
    await rec.flush()
    await rec.close()
    expect(wholeRecordUuids(rec.filePath)).toEqual([...before, big, after])
  })

  it('an unfinished line appended just before the first slice, then the file moved away: the new file gets the record whole', async () => {
    // Found by the review of the restart: a file leaving the path is not restarted, and with nothing
    // carried for the glued first slice, their line and our slice went to the new file, the record split.
    const { dir, rec, before, big, after } = await changeAfterTheFirstSlice(words, {
      before: (filePath) => fs.appendFileSync(filePath, partial),
      after: (filePath) => fs.renameSync(filePath, path.join(path.dirname(filePath), 'moved.jsonl')),
    })
    await rec.flush()
    await rec.close()
    expect(wholeRecordUuids(path.join(dir, 'moved.jsonl'))).toEqual(before)
    expect(fs.readFileSync(rec.filePath, 'utf8')).not.toContain(partial)
    expect(wholeRecordUuids(rec.filePath)).toEqual([big, after])
  })

  it('overwritten in place by someone else between two slices: the next file gets it whole', async () => {
    const { dir, rec, errors, big, after } = await changeAfterTheFirstSlice(words, {
      after: (filePath) => fs.writeFileSync(filePath, 'id,name\n1,someone else\n'),
    })
    expect(errors.map((error) => error.code)).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
    fs.renameSync(rec.filePath, path.join(dir, 'theirs.csv'))
    await rec.flush()
    await rec.close()
    expect(fs.readFileSync(path.join(dir, 'theirs.csv'), 'utf8')).toBe('id,name\n1,someone else\n')
    expect(wholeRecordUuids(rec.filePath)).toEqual([big, after])
    // The three records before it went with the overwrite, and were said to (the report, not the refusals
    // that repeat its message).
    expect(reportedLost(errors.filter((error) => error.code === 'ERR_TRANSCRIPT_OVERWRITTEN'))).toBe(3)
  })
})
