// Issue #13, with the real recorder: a shutdown `sync` variant registered before the recorder calls
// process.exit() on 'exit'. Node ends the process inside that call unless it is held, so the 'exit'
// listeners after it — the recorder's exit drain — never ran, and every record still queued was lost.
// The shutdown package holds process.exit() while its sync variants run: all 1,000 records are on disk.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSession } from '@sessiontape/recorder'
import { examplesDir, nodeArgs, scratchDir } from './helpers/agent-process.js'

const RECORDS = 1000

/** The program: shutdown's 'exit' listener first, then the recorder's; 1,000 records, then exit(0). */
const PROGRAM = `
import { registerCleanup } from '@sessiontape/shutdown'
import { createRecorder } from '@sessiontape/recorder'
// A lockfile release that ends the process itself, as some teardown code does. Registered first, so its
// 'exit' listener runs before the recorder's.
registerCleanup(() => {}, { name: 'lockfile', sync: () => process.exit(0) })
const recorder = createRecorder({ dir: process.env.DIR, sessionId: 'held' })
for (let i = 0; i < ${RECORDS}; i++) recorder.record('event', { i, pad: 'x'.repeat(200) })
// Third-party code ending the process directly: only 'exit' listeners run now.
process.exit(0)
`

describe("process.exit() inside a shutdown sync variant, before the recorder's exit drain", () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  beforeAll(async () => (scratch = await scratchDir('exit-hook')))
  afterAll(() => scratch.remove())

  it(`loses none of ${RECORDS} accepted records`, async () => {
    const dir = join(scratch.path, 'sessions')
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', PROGRAM], {
      cwd: examplesDir,
      env: { ...process.env, NODE_OPTIONS: '', DIR: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(code, stderr).toBe(0)
    const { records } = await readSession(join(dir, 'held.jsonl'))
    expect(records.length, stderr).toBe(RECORDS)
  })
})
