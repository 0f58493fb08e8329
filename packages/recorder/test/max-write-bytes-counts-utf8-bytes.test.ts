import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { bigPayload, expectedLine, rawLines } from './helpers/big-payloads.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

const MAX = 16 * 1024

/** A file system that notes the size of every write, background (`write`) and synchronous (`writeSync`). */
function sizedWrites() {
  const sizes: number[] = []
  const seam = fakeFs({
    overrides: {
      write: (real) => (fd, buffer, offset, length) => {
        sizes.push(length)
        return real(fd, buffer, offset, length)
      },
      writeSync: (real) => (fd, buffer, offset, length) => {
        sizes.push(length)
        return real(fd, buffer, offset, length)
      },
    },
  })
  return { seam, sizes }
}

// Chat records of text that is 3 bytes per code unit in UTF-8 (2,700 bytes each), and records holding
// long strings that escape to up to 6 bytes per code unit: counted in code units, a write of 16 Ki of
// them would carry up to 48 KiB (batches) or 96 KiB (held strings).
function datas(): object[] {
  const out: object[] = []
  for (let i = 0; i < 60; i++) {
    out.push({ i, text: `${i}:${'€'.repeat(900)}` })
    if (i % 20 === 10) out.push(bigPayload(i, 80_000))
  }
  out.push({ text: '日本語'.repeat(30_000) })
  return out
}

describe('maxWriteBytes bounds every write in UTF-8 bytes', () => {
  it.for([
    ['the background writer', false],
    ['flushSync()', true],
  ] as const)(
    'non-ASCII records written by %s: no write carries more than maxWriteBytes bytes',
    async ([, sync]) => {
      const dir = await tempDir()
      const { seam, sizes } = sizedWrites()
      const rec = createRecorder({ dir, fs: seam, fsync: 'never', meta: false, maxWriteBytes: MAX })
      await rec.ready()
      const all = datas()
      for (const data of all) rec.record('event', data)
      if (sync) rec.flushSync()
      await rec.close()

      expect(sizes.length).toBeGreaterThan(0)
      expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX)
      // Batches of whole records are filled by bytes, not cut to a third for safety: a batch of these chat
      // records takes at least 5 of them (13.5 KB).
      expect(Math.max(...sizes)).toBeGreaterThan(5 * 2700)
      const lines = rawLines(rec.filePath)
      expect(lines).toHaveLength(all.length)
      lines.forEach((line, i) => {
        expect(
          line === expectedLine(JSON.parse(line) as Record<string, unknown>, all[i]!),
          `line ${i + 1}`,
        ).toBe(true)
      })
      expect(rec.stats().bytesWritten).toBe(sizes.reduce((sum, size) => sum + size, 0))
    },
  )
})
