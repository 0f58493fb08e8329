import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

function datas(): object[] {
  return [
    { message: { role: 'user', content: 'hi' } },
    { cwd: '/mine', items: Array.from({ length: 3_000 }, (_, i) => ({ i })) },
    { toJSON: () => ({ fromToJSON: true, version: 'own' }) },
    { big: 'z'.repeat(300_000), n: 1 },
    {},
  ]
}

function strip(line: string): Record<string, unknown> {
  const record = JSON.parse(line) as Record<string, unknown>
  delete record.uuid
  delete record.timestamp
  delete record.parentUuid
  return record
}

describe('a writer profile writes the same line with or without handOver', () => {
  for (const profile of ['claude-code', 'qwen-code', 'sessiontape'] as const) {
    it(profile, async () => {
      const lines: string[][] = []
      for (const handOver of [false, true]) {
        const dir = await tempDir()
        const rec = createRecorder({ dir, sessionId: 's', meta: false, profile })
        for (const data of datas()) rec.record('user', data, { handOver })
        await rec.close()
        lines.push(readFileSync(rec.filePath, 'utf8').split('\n').filter(Boolean))
      }
      expect(lines[1]!.map((l) => JSON.stringify(strip(l)))).toEqual(
        lines[0]!.map((l) => JSON.stringify(strip(l))),
      )
    })
  }
})
