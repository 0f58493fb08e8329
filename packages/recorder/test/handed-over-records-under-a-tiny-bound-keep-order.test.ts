import { readFileSync } from 'node:fs'

import { describe, expect, it, vi } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { LONG_WORK_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: LONG_WORK_TEST_TIMEOUT_MS, hookTimeout: LONG_WORK_TEST_TIMEOUT_MS })

describe('records handed over under a tiny maxQueueBytes', () => {
  for (const [ready, count, bound] of [
    [false, 40, 1],
    [true, 40, 1],
    // Past COMPACT_MIN_HEAD (1024) written records, with the one record over the bound and placeholders queued.
    [true, 5_000, 64 * 1024],
  ] as const) {
    it(`drain-sync keeps every record, in order (open first: ${ready}, ${count} records, bound ${bound})`, async () => {
      const dir = await tempDir()
      // lockStaleMs raised: between its setImmediate yields this test keeps the loop busy with synchronous drains
      // for seconds at load (700 records, a 5,000-item record in every five); past 3/4 of the default 10 s the
      // heartbeat is overdue and a synchronous drain rightly refuses to write (README, guarantee on the lock) —
      // a sweep run at load ~14 failed so. This test is about order under the bound, not about the lock.
      const rec = createRecorder({ dir, meta: false, maxQueueBytes: bound, lockStaleMs: 60_000 })
      if (ready) await rec.ready()
      const uuids: string[] = []
      for (let i = 0; i < count; i++) {
        const handOver = i % 3 !== 2
        const data = i % 5 === 0 ? { items: Array.from({ length: 5_000 }, (_, k) => ({ k })) } : { i }
        uuids.push(rec.record(i % 2 === 0 ? 'tool_result' : 'user', data, { handOver }))
        if (i % 7 === 0 && (count < 100 || i % 700 === 0)) await new Promise((r) => setImmediate(r))
      }
      await rec.close()
      const lines = readFileSync(rec.filePath, 'utf8').split('\n').filter(Boolean)
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(records.map((r) => r.uuid)).toEqual(uuids)
      expect(records.every((r) => r.recordError === undefined)).toBe(true)
      expect(
        records.filter((r) => Array.isArray(r.items)).every((r) => (r.items as unknown[]).length === 5_000),
      ).toBe(true)
      // 5,000 records through a 64 Ki bound, each overflow drained synchronously: 13–18 s alone at load 16–18
      // on the 2-core VM, past the default 20 s in a full run of the project there.
    })
  }
})
