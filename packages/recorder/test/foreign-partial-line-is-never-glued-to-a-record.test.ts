import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

describe('a partial line someone else appended (no newline) is never glued to our next record', () => {
  for (const fileCheckIntervalMs of [0, 60_000]) {
    it(`fileCheckIntervalMs: ${fileCheckIntervalMs}: our record starts on a line of its own and parses`, async () => {
      const dir = await tempDir()
      const codes: string[] = []
      const rec = createRecorder({ dir, fileCheckIntervalMs, onError: (error) => codes.push(error.code) })
      const first = rec.record('first')
      await rec.flush()
      await fs.appendFile(rec.filePath, 'partial line from another tool')
      const second = rec.record('second')
      await rec.flush()
      await rec.close()
      const lines = (await fs.readFile(rec.filePath, 'utf8')).split('\n')
      expect(lines).toHaveLength(4)
      expect(JSON.parse(lines[0]!)).toMatchObject({ uuid: first })
      expect(lines[1]).toBe('partial line from another tool')
      expect(JSON.parse(lines[2]!)).toMatchObject({ uuid: second, parentUuid: first })
      expect(lines[3]).toBe('')
      expect(codes).toEqual(['ERR_TRANSCRIPT_CHANGED'])
    })
  }
})
