import { appendFile, readFile } from 'node:fs/promises'

import { describe, expect, it } from 'vitest'

import { createRecorder, readSession } from '../src/index.js'
import { withTempDir } from './helpers/records.js'

describe('a resumed session with a torn tail, then records handed over', () => {
  for (const flushSync of [false, true]) {
    it(`the recovered record comes first, then the records in order (flushSync: ${flushSync})`, async () => {
      await withTempDir(async (dir) => {
        const first = createRecorder({ dir, sessionId: 's1', meta: false })
        const last = first.record('user', { text: 'hi' })
        await first.close()
        await appendFile(first.filePath, '{"uuid":"3f1c","parentUuid":"a1","type":"assis')
        const before = await readFile(first.filePath)

        const resumed = createRecorder({ dir, sessionId: 's1', resume: true, meta: false })
        const a = resumed.record(
          'tool_result',
          { items: Array.from({ length: 10_000 }, (_, k) => ({ k })) },
          { handOver: true },
        )
        const b = resumed.record('user', { text: 'next' })
        if (flushSync) resumed.flushSync()
        await resumed.close()

        const bytes = await readFile(first.filePath)
        expect(bytes.subarray(0, before.length)).toEqual(before)
        const lines = bytes
          .subarray(before.length + 1)
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
        const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
        expect(records.map((r) => r.type)).toEqual(['recovered', 'tool_result', 'user'])
        expect(records[1]).toMatchObject({ uuid: a, parentUuid: last })
        expect(records[2]).toMatchObject({ uuid: b, parentUuid: a })
        const session = await readSession(first.filePath)
        expect(session.records.map((r) => r.uuid)).toContain(a)
      })
    })
  }
})
