import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { nodeFs, type RecorderFs } from '../src/util/recorder-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

/**
 * The real file system, with one gate: while `hold()` is armed, the next read waits until `release()`.
 * It stops an attempt of the write cycle half way, after it opened the file at the path.
 */
function gatedFs(): { fs: RecorderFs; hold: () => Promise<void>; release: () => void } {
  let armed = false
  let reached = (): void => {}
  let open = (): void => {}
  const fs: RecorderFs = {
    ...nodeFs,
    read: async (...args) => {
      if (armed) {
        armed = false
        const gate = new Promise<void>((resolve) => (open = resolve))
        reached()
        await gate
      }
      return nodeFs.read(...args)
    },
  }
  return {
    fs,
    hold: () => {
      armed = true
      return new Promise<void>((resolve) => (reached = resolve))
    },
    release: () => open(),
  }
}

describe('a flush() or close() called while a failing attempt runs is answered by an attempt of its own', () => {
  it('the foreign file moved away while a retry was reading it: close() resolves and writes the records to a new file', async () => {
    const dir = await tempDir()
    const foreign = Buffer.from('name,value\nrow1,1\n')
    const gate = gatedFs()
    const codes: string[] = []
    const rec = createRecorder({
      dir,
      sessionId: 'mine',
      fs: gate.fs,
      onError: (error) => codes.push(error.code),
    })
    await fs.writeFile(rec.filePath, foreign)
    rec.record('first')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })

    // The next attempt opens the foreign file and stops at its first read (whose file is it?).
    const reading = gate.hold()
    const retry = rec.flush()
    await reading
    // The user moves the foreign file away, then closes: the attempt under way read what was there before.
    await fs.rename(rec.filePath, path.join(dir, 'moved-away.csv'))
    const closing = rec.close()
    gate.release()
    // The attempt that began before the move fails, and the flush made before it with it.
    await expect(retry).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE' })
    // close() was called after the move: it waits for an attempt that begins after it, and that one succeeds.
    await expect(closing).resolves.toBeUndefined()
    expect(await fs.readFile(path.join(dir, 'moved-away.csv'))).toEqual(foreign)
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['first'])
    expect(codes).toContain('ERR_FOREIGN_FILE')
  })

  it('a flush() called before a failing attempt began is rejected by it, with the typed error and its count', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, sessionId: 'mine', onError: () => {} })
    await fs.writeFile(rec.filePath, 'name,value\n')
    rec.record('first')
    await expect(rec.flush()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
    await expect(rec.close()).rejects.toMatchObject({ code: 'ERR_FOREIGN_FILE', unwrittenRecords: 1 })
    await fs.unlink(rec.filePath)
    await rec.close()
    expect(readTranscript(rec.filePath).map((r) => r.type)).toEqual(['first'])
  })
})
