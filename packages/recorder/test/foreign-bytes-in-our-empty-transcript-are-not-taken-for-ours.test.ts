import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

const FOREIGN = 'name,value\nrow1,1\n'

describe('bytes someone puts into the transcript we created before our first record are not taken for ours', () => {
  for (const how of ['appended', 'written at offset 0'] as const) {
    it(`${how}: the file is never written, flush() rejects, the records stay queued`, async () => {
      const dir = await tempDir()
      const errors: RecorderError[] = []
      const rec = createRecorder({ dir, onError: (error) => errors.push(error) })
      // The recorder opens (and creates) the transcript before its first record.
      await rec.ready()
      expect(fs.readFileSync(rec.filePath, 'utf8')).toBe('')
      if (how === 'appended') fs.appendFileSync(rec.filePath, FOREIGN)
      else {
        const fd = fs.openSync(rec.filePath, 'r+')
        fs.writeSync(fd, FOREIGN, 0)
        fs.closeSync(fd)
      }
      rec.record('first')
      await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
      expect(fs.readFileSync(rec.filePath, 'utf8')).toBe(FOREIGN)
      expect(errors.map((error) => error.code)).toContain('ERR_TRANSCRIPT_OVERWRITTEN')
      expect(errors.map((error) => error.code)).not.toContain('ERR_TRANSCRIPT_CHANGED')
      fs.renameSync(rec.filePath, `${rec.filePath}.theirs`)
      await rec.close()
      expect(fs.readFileSync(`${rec.filePath}.theirs`, 'utf8')).toBe(FOREIGN)
      expect(fs.readFileSync(rec.filePath, 'utf8')).toContain('"type":"first"')
    })
  }
})
