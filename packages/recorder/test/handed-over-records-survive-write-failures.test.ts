import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('records handed over while writes fail', () => {
  it('every record is written once, in order, after the failures pass', async () => {
    const dir = await tempDir()
    let failures = 3
    const fs = fakeFs({
      overrides: {
        write:
          (real) =>
          (...args) =>
            failures-- > 0 ? Promise.reject(errno('ENOSPC')) : real(...args),
      },
    })
    const errors: RecorderError[] = []
    const rec = createRecorder({ dir, meta: false, fs, onError: (e) => void errors.push(e) })
    const uuids: string[] = []
    for (let i = 0; i < 5; i++) {
      uuids.push(rec.record('user', { i }))
      uuids.push(
        rec.record(
          'tool_result',
          { items: Array.from({ length: 20_000 }, (_, k) => ({ k })) },
          { handOver: true },
        ),
      )
    }
    for (;;) {
      try {
        await rec.flush()
        break
      } catch {
        // retried by the loop
      }
    }
    await rec.close()
    const lines = readFileSync(rec.filePath, 'utf8').split('\n').filter(Boolean)
    expect(lines.map((l) => (JSON.parse(l) as { uuid: string }).uuid)).toEqual(uuids)
    expect(errors.length).toBeGreaterThan(0)
  }, 60_000)
})
