import fs from 'node:fs/promises'
import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// The bytes written to a transcript that was then deleted live only in the old, unlinked file until they
// are copied into the recreated one. A synchronous drain (flushSync, the exit drain) that ran while that
// copy was still pending and nothing else was queued used to report success and leave them behind.
it('flushSync() copies bytes still owed to a recreated transcript even when no record is queued', async () => {
  const dir = await tempDir()
  let opens = 0
  let opensPending = 0
  const fake = fakeFs({
    overrides: {
      open: (real) => async (file, flags, mode) => {
        opensPending++
        try {
          // The reopen after the replacement is slow (a busy threadpool): the copy is still pending.
          if (++opens === 2) await new Promise((resolve) => setTimeout(resolve, 300))
          return await real(file, flags, mode)
        } finally {
          opensPending--
        }
      },
    },
  })
  const codes: string[] = []
  const rec = createRecorder({
    dir,
    sessionId: 'carry',
    fileCheckIntervalMs: 60_000,
    fs: fake,
    onError: (error) => codes.push(error.code),
  })
  const first = rec.record('first')
  // Written by the background loop, not yet confirmed at the path (no flush, no periodic check due).
  while (rec.stats().persisted < 1) await new Promise((resolve) => setTimeout(resolve, 2))
  await fs.unlink(rec.filePath)
  // close() makes one last check of the path, finds it gone and starts recreating it.
  const closing = rec.close()
  while (opens < 2) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(codes).toEqual(['ERR_TRANSCRIPT_REPLACED'])

  expect(rec.flushSync()).toEqual({ uuid: first, count: 1 })
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first])
  await closing
  // The loop's open that flushSync took over ran on in the threadpool; close() waited for it (and closed
  // what it opened), so nothing of the recorder's touches the directory once close() resolved.
  expect(opensPending).toBe(0)
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first])
})
