import { expect, it } from 'vitest'

import { runFixture } from './helpers/run-fixture.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('an earlier exit listener that calls process.exit() does not skip the exit drain: every record is on disk', async () => {
  const dir = await tempDir()
  const result = await runFixture('exit-listener-calls-process-exit', [dir])
  expect(result.code).toBe(3)
  expect(result.stdout).toBe('1000\n')
  const records = readTranscript(`${dir}/hooked.jsonl`)
  expect(records).toHaveLength(1000)
  expect(records.map((r) => r.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i))
})
