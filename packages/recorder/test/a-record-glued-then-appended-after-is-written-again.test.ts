import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { recorderWithARacedWrite } from './helpers/race-our-next-write.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// The race of seed 24 case 6 in the tamperer fuzz, made to happen at a known moment with real file
// operations: another tool appends an unfinished line just after the recorder's last look at the file and
// before its write lands (our record is glued to it), then appends a second unfinished line before the
// recorder looks again. The file no longer ends with our last bytes, but they are still in it, after our
// first bytes: an append (README guarantee 7's last row), not a rewrite in place.
function recordUuids(filePath: string): string[] {
  return fs
    .readFileSync(filePath, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { uuid: string }).uuid)
}

const first = 'partial line of another tool 0'
const second = 'partial line of another tool 1'

describe('a record glued to an unfinished line, with another appended after it, is written again', () => {
  it('at the path: written again whole on a line of its own after their second line; nothing lost, nothing twice', async () => {
    const dir = await tempDir()
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.appendFileSync(filePath, first),
      after: () => fs.appendFileSync(filePath, second),
    }))
    const a = rec.record('chat', { i: 0 })
    await rec.flush()
    arm()
    const glued = rec.record('chat', { i: 1 })
    const next = rec.record('chat', { i: 2 })
    await rec.flush()
    const after = rec.record('chat', { i: 3 })
    await rec.flush()
    await rec.close()

    const lines = fs.readFileSync(rec.filePath, 'utf8').split('\n')
    // As it happened: their first line with our record glued to it, our next record, their second line; the
    // damaged line stays (append-only), the glued record follows whole on a line of its own.
    expect(lines[1]).toMatch(new RegExp(`^${first}\\{"uuid":"${glued}"`))
    expect(lines[3]).toBe(second)
    expect(recordUuids(rec.filePath)).toEqual([a, next, glued, after])
    const codes = errors.map((error) => error.code)
    expect(codes).toContain('ERR_TRANSCRIPT_CHANGED')
    expect(codes).not.toContain('ERR_TRANSCRIPT_OVERWRITTEN')
    const changed = errors.find((error) => error.code === 'ERR_TRANSCRIPT_CHANGED')
    expect(changed?.message).toMatch(/glued to their unfinished line, and is written again/)
  })

  it('moved away before the next look: the new file gets our records whole, never their bytes', async () => {
    const dir = await tempDir()
    const moved = path.join(dir, 'moved-away.jsonl')
    const { rec, errors, arm } = recorderWithARacedWrite(dir, (filePath) => ({
      before: () => fs.appendFileSync(filePath, first),
      after: () => {
        fs.appendFileSync(filePath, second)
        fs.renameSync(filePath, moved)
      },
    }))
    rec.record('chat', { i: 0 })
    await rec.flush()
    arm()
    const glued = rec.record('chat', { i: 1 })
    const next = rec.record('chat', { i: 2 })
    await rec.flush()
    const after = rec.record('chat', { i: 3 })
    await rec.flush()
    await rec.close()

    const movedText = fs.readFileSync(moved, 'utf8')
    expect(movedText.split('\n')[1]).toMatch(new RegExp(`^${first}\\{"uuid":"${glued}"`))
    expect(movedText.endsWith(second)).toBe(true)
    expect(fs.readFileSync(rec.filePath, 'utf8')).not.toContain('partial line')
    expect(readTranscript(rec.filePath).map((record) => record.uuid)).toEqual([glued, next, after])
    const codes = errors.map((error) => error.code)
    expect(codes).toContain('ERR_TRANSCRIPT_REPLACED')
    expect(codes).not.toContain('ERR_TRANSCRIPT_OVERWRITTEN')
  })
})
