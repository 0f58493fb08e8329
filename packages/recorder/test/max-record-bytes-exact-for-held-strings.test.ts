import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderError, RecordTooLargeError } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

function strings(seed: number): string[] {
  const alphabet = [
    'a',
    '"',
    '\\',
    '\n',
    '\u0001',
    'é',
    '€',
    '😀',
    '\ud800',
    '\udc00',
    '\u2028',
    '<',
    '\udbff\udfff',
  ]
  const out: string[] = []
  for (let s = 0; s < 3; s++) {
    const n = 400_000 + ((seed * 7919 + s * 104729) % 50_000)
    const parts: string[] = []
    let len = 0
    for (let i = 0; len < n; i++) {
      const c = alphabet[(seed * 13 + i * 31 + s) % alphabet.length]!
      const run = c.repeat(1 + ((i * seed) % 97))
      parts.push(run)
      len += run.length
    }
    out.push(parts.join(''))
  }
  return out
}

describe('maxRecordBytes is exact for records holding long strings (and handed over)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    for (const handOver of [false, true]) {
      it(`seed ${seed} handOver ${handOver}: accepted at its size, refused one byte under`, async () => {
        const [a, b, c] = strings(seed)
        const data = { a, nested: { b, list: [c, 1, null] } }
        const dir = await tempDir()
        const rec = createRecorder({ dir, sessionId: 's', meta: false })
        rec.record('tool_result', data)
        await rec.close()
        const text = readFileSync(rec.filePath, 'utf8')
        const bytes = Buffer.byteLength(text)
        const errors: RecorderError[] = []
        for (const [max, ok] of [
          [bytes, true],
          [bytes - 1, false],
        ] as const) {
          const dir2 = await tempDir()
          const r = createRecorder({
            dir: dir2,
            sessionId: 's',
            meta: false,
            maxRecordBytes: max,
            onError: (e) => void errors.push(e),
          })
          if (handOver) {
            r.record('tool_result', data, { handOver: true })
            await r.close()
            const written = JSON.parse(readFileSync(r.filePath, 'utf8')) as Record<string, unknown>
            expect('recordError' in written, `max ${max}`).toBe(!ok)
          } else if (ok) {
            expect(() => r.record('tool_result', data)).not.toThrow()
            await r.close()
          } else {
            expect(() => r.record('tool_result', data)).toThrow(RecordTooLargeError)
            await r.close()
          }
        }
      }, 60_000)
    }
  }
})
