// The path cache never keeps a miss: the write_file tool asks "does notes/turn-3.md exist?" (no), writes
// it, and asks again (yes) — in a real agent process, through the real cache.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgent, scratchDir } from './helpers/agent-process.js'
import { readCleanSession } from './helpers/transcript.js'

describe('a file created right after a lookup missed', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('enoent')))
  afterAll(() => scratch.remove())

  it('is seen on the very next lookup', async () => {
    const dir = join(scratch.path, 'sessions')
    const { code, stderr } = await runAgent(['--dir', dir, '--session', 'writer', '--turns', '4'])
    expect(code, stderr).toBe(0)

    const records = await readCleanSession(join(dir, 'writer.jsonl'))
    const writes = records.filter(
      (record) => record.type === 'tool_result' && record['tool'] === 'write_file',
    )
    expect(writes).toHaveLength(1)
    expect(writes[0]?.['output']).toMatchObject({
      path: 'notes/turn-3.md',
      existedBefore: false,
      seenAfterWrite: true,
    })
    expect(await readFile(join(scratch.path, 'workspace', 'notes', 'turn-3.md'), 'utf8')).toMatch(/^# Turn 3/)
  })
})
