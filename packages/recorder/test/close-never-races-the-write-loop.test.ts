import fs from 'node:fs'
import path from 'node:path'
import { expect, it, vi } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'
import { LONG_WORK_TEST_TIMEOUT_MS } from './helpers/timeouts.js'

// Raised for this file: see helpers/timeouts.ts (a hang detector, not a bound on speed).
vi.setConfig({ testTimeout: LONG_WORK_TEST_TIMEOUT_MS, hookTimeout: LONG_WORK_TEST_TIMEOUT_MS })

// close() used to resolve while the write loop still ran after a transcript was deleted or renamed; the loop
// then closed a descriptor number a second time — by then a file the host had opened — and wrote transcript
// bytes into it. close() now stops the loop, waits for it, checks the path once more, and only then closes
// each descriptor, once.
const ROUNDS = 60

it(`deleting or renaming the transcript right before close(), ${ROUNDS} rounds: no descriptor of the host is closed or written`, async () => {
  const dir = await tempDir()
  const hostDir = await tempDir()
  for (let round = 0; round < ROUNDS; round++) {
    const rec = createRecorder({
      dir,
      sessionId: `round-${round}`,
      meta: false,
      fileCheckIntervalMs: 60_000,
      onError: () => {},
    })
    const uuids: string[] = []
    for (let i = 0; i < 20; i++) uuids.push(rec.record('chat', { round, i, text: 'r'.repeat(300) }))
    // Let the loop write it without confirming the path (no flush, no check due).
    while (rec.stats().persisted < 20) await new Promise((resolve) => setImmediate(resolve))
    if (round % 2 === 0) fs.unlinkSync(rec.filePath)
    else fs.renameSync(rec.filePath, `${rec.filePath}.moved`)

    // While close() runs, the host opens files (taking the descriptor numbers the recorder lets go of).
    const host: Array<{ fd: number; file: string; text: string }> = []
    let closing = true
    const opener = (async () => {
      while (closing) {
        const file = path.join(hostDir, `host-${round}-${host.length}.txt`)
        const text = `host file ${round}/${host.length}\n`
        const fd = fs.openSync(file, 'w+')
        fs.writeSync(fd, text)
        host.push({ fd, file, text })
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    await rec.close()
    closing = false
    await opener
    // Anything still running after close() would act now.
    await new Promise((resolve) => setTimeout(resolve, 20))

    for (const { fd, file, text } of host) {
      // Still open (fstat throws EBADF on a closed descriptor), still the same file, unchanged.
      expect(fs.fstatSync(fd).ino).toBe(fs.statSync(file).ino)
      expect(fs.readFileSync(file, 'utf8')).toBe(text)
      fs.closeSync(fd)
    }
    const atPath = readTranscript(rec.filePath).map((r) => r.uuid)
    const moved = round % 2 === 1 ? readTranscript(`${rec.filePath}.moved`).map((r) => r.uuid) : []
    // Every record reached the path; what the moved file holds is only what was written before the rename.
    expect(atPath).toEqual(uuids)
    expect(uuids.slice(0, moved.length)).toEqual(moved)
  }
})
