import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import { runFixture } from './support/run-fixture.js'
import { tempDir } from './support/temp-dir.js'
import { readTranscript } from './support/transcript.js'

describe('exit safety net: records still queued when the process exits are written synchronously', () => {
  it.for([
    ['immediate', 0],
    ['mid-burst', 0],
    ['throw', 1],
  ] as const)(
    '%s: every accepted record is on disk, in order, with an intact chain',
    async ([how, exitCode]) => {
      const dir = await tempDir()
      const result = await runFixture('exit-with-records-queued', [dir, 'exiting', how])
      expect(result.code).toBe(exitCode)
      const accepted = Number(result.stdout.trim())
      expect(accepted).toBeGreaterThan(0)
      const records = readTranscript(`${dir}/exiting.jsonl`)
      expect(records).toHaveLength(accepted)
      expect(records.map((r) => r.i)).toEqual([...Array(accepted).keys()])
      for (let i = 1; i < records.length; i++) expect(records[i]!.parentUuid).toBe(records[i - 1]!.uuid)
      // The sidecar was brought up to date by the same exit drain.
      const meta = JSON.parse(fs.readFileSync(`${dir}/exiting.meta.json`, 'utf8')) as Record<string, unknown>
      expect(meta).toMatchObject({ recordCount: accepted, lastUuid: records.at(-1)!.uuid })
      // The lock went with the process.
      expect(fs.existsSync(`${dir}/exiting.jsonl.lock`)).toBe(false)
    },
  )
})
