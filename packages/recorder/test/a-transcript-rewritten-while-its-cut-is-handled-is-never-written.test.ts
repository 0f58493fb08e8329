import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { nodeFs, type RecorderFs } from '../src/util/recorder-fs.js'
import { tempDir } from './helpers/temp-dir.js'

// A CSV file of someone else's, longer than what is left of ours after the cut.
const FOREIGN = `id,name,notes\n${Array.from({ length: 40 }, (_, i) => `${i},row ${i},${'n'.repeat(30)}\n`).join('')}`
// The reads the recorder makes between finding the cut and its next write (10 on this code: 11 before stop
// 40's search for its last write, which reads nothing when that write is longer than what is left; it once
// read the file's first line again among them, 9th): the rewrite is made to land before each of them in turn.
const READS_BEFORE_THE_NEXT_WRITE = Array.from({ length: 10 }, (_, index) => index + 1)

// Seed 24 case 34 of the tamper fuzz (docs/kill-fuzz.md): after a cut, the recorder read the file's first
// line again to learn what to expect there; `cat other > file` landing just before that read made it take
// the other file for its own, and it wrote 172 records into it. The first line is the file's identity: it is
// kept across a cut, never read again.
describe('a transcript rewritten by someone else while the recorder handles a cut is never written', () => {
  it.for(READS_BEFORE_THE_NEXT_WRITE)(
    'cut, then `cat other > file` landing before read %i after it: ERR_FOREIGN_FILE, their file byte for byte',
    async (nth) => {
      const dir = await tempDir()
      const errors: RecorderError[] = []
      let filePath = ''
      // Reads left until the rewrite; null: not armed.
      let readsLeft: number | null = null
      // Real file operations; only the moment of the rewrite (truncate, then write: `cat other > file`) is chosen.
      const racing: RecorderFs = {
        ...nodeFs,
        read: (fd, buffer, offset, length, position) => {
          if (readsLeft !== null && --readsLeft === 0) {
            readsLeft = null
            fs.writeFileSync(filePath, FOREIGN)
          }
          return nodeFs.read(fd, buffer, offset, length, position)
        },
      }
      const rec = createRecorder({
        dir,
        fs: racing,
        fileCheckIntervalMs: 0,
        onError: (error) => errors.push(error),
      })
      filePath = rec.filePath
      // Short records: the first line (what the recorder knows the file by) is shorter than any window it reads.
      for (let i = 0; i < 10; i++) rec.record('chat', { i })
      await rec.flush()
      // Cut through the fifth record: the writer finds the cut at its next check, reports it and goes on.
      const lines = fs.readFileSync(filePath, 'utf8').split('\n')
      fs.truncateSync(filePath, lines.slice(0, 4).join('\n').length + 1 + 30)
      readsLeft = nth
      for (let i = 10; i < 15; i++) rec.record('chat', { i })
      await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
      expect(readsLeft).toBe(null)
      // Their file, byte for byte: nothing of ours was written into it, and what it destroyed was reported.
      expect(fs.readFileSync(filePath, 'utf8')).toBe(FOREIGN)
      expect(errors.map((error) => error.code)).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
      // Moved away, the path is free: the queued records are written into a file of their own.
      fs.renameSync(filePath, `${filePath}.theirs`)
      await rec.flush()
      await rec.close()
      expect(fs.readFileSync(`${filePath}.theirs`, 'utf8')).toBe(FOREIGN)
      const ours = fs
        .readFileSync(filePath, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => (JSON.parse(line) as { i: number }).i)
      expect(ours).toEqual([10, 11, 12, 13, 14])
    },
  )
})
