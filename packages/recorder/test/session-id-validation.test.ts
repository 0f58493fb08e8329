import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

const badIds = [
  '',
  '..',
  'a..b',
  '../escape',
  'dir/name',
  'dir\\name',
  '.hidden',
  '-dash-first',
  '_underscore-first',
  'space inside',
  'nul\0byte',
  'ü-non-ascii',
  'x'.repeat(129),
]

describe('session ids become file names, so only a safe alphabet is accepted', () => {
  it.for(badIds)('rejects %j with a TypeError naming the id, creating nothing', async (id) => {
    const dir = await tempDir()
    let caught: unknown
    try {
      createRecorder({ dir, sessionId: id })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(TypeError)
    expect((caught as TypeError).message).toContain(JSON.stringify(id))
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it.for([123, null, {}])('rejects a non-string id (%j)', async (id) => {
    const dir = await tempDir()
    expect(() => createRecorder({ dir, sessionId: id as unknown as string })).toThrow(TypeError)
  })

  it.for(['a', 'A1', '01978a95-7553-46d3-b1b3-6e5145919afe', 'my_session.v2-final', 'x'.repeat(128)])(
    'accepts %s and names the transcript <id>.jsonl inside dir',
    async (id) => {
      const dir = await tempDir()
      const rec = createRecorder({ dir, sessionId: id })
      expect(rec.sessionId).toBe(id)
      expect(rec.filePath).toBe(path.join(dir, `${id}.jsonl`))
      rec.record('event')
      await rec.close()
      expect(fs.existsSync(rec.filePath)).toBe(true)
    },
  )

  it('defaults to a random UUID', async () => {
    const dir = await tempDir()
    const a = createRecorder({ dir })
    const b = createRecorder({ dir })
    expect(a.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.sessionId).not.toBe(b.sessionId)
    await Promise.all([a.close(), b.close()])
  })
})
