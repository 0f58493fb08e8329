import fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { CHILD_PROCESS_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TEST_TIMEOUT_MS })

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
      const meta = JSON.parse(fs.readFileSync(`${dir}/.sessiontape/exiting.meta.json`, 'utf8')) as Record<
        string,
        unknown
      >
      expect(meta).toMatchObject({ recordCount: accepted, lastUuid: records.at(-1)!.uuid })
      // The lock went with the process.
      expect(fs.existsSync(`${dir}/.sessiontape/exiting.jsonl.lock`)).toBe(false)
      // And so did the record of who held it: no owner file is left next to every transcript.
      expect(fs.existsSync(`${dir}/.sessiontape/exiting.jsonl.lock.owner`)).toBe(false)
    },
  )
})

it('resume then exit at once: the exit drain ends the torn line and names it before appending, so nothing is glued', async () => {
  const dir = await tempDir()
  const file = `${dir}/resumed.jsonl`
  const earlier = [
    {
      uuid: 'a',
      parentUuid: null,
      sessionId: 'resumed',
      timestamp: new Date().toISOString(),
      type: 'old',
      v: 1,
    },
    {
      uuid: 'b',
      parentUuid: 'a',
      sessionId: 'resumed',
      timestamp: new Date().toISOString(),
      type: 'old',
      v: 1,
    },
  ]
  const torn = '{"uuid":"c","parentUuid":"b","sess'
  fs.writeFileSync(file, `${earlier.map((r) => JSON.stringify(r)).join('\n')}\n${torn}`)

  const before = fs.readFileSync(file)

  const result = await runFixture('exit-with-records-queued', [dir, 'resumed', 'resume'])
  expect(result.code).toBe(0)
  const accepted = Number(result.stdout.trim())
  // Append-only: the torn bytes stay where they were, ended by a newline; nothing is glued onto them.
  const bytes = fs.readFileSync(file)
  expect(bytes.subarray(0, before.length)).toEqual(before)
  const lines = bytes.subarray(before.length).toString('utf8').split('\n')
  expect(lines[0]).toBe('')
  const records = lines
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(records.map((r) => r.type)).toEqual(['recovered', ...Array<string>(accepted).fill('chat')])
  expect(records[0]).toMatchObject({
    parentUuid: 'b',
    tornOffset: before.length - torn.length,
    tornLength: torn.length,
  })
  // `recovered` is metadata, never a parent: the chain goes on from the last whole record.
  expect(records[1]!.parentUuid).toBe('b')
})
