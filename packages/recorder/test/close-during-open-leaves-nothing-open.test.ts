import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'

// close() of a recorder that has recorded nothing has nothing to flush and returns at once, possibly while the
// background open of the transcript is still in the threadpool. The descriptor that open returns afterwards
// must be closed too, not adopted by a closed recorder and leaked.
it('close() while the background open is in flight leaves no descriptor open', async () => {
  const dir = await tempDir()
  const opened: number[] = []
  const closed: number[] = []
  const fs = fakeFs({
    overrides: {
      open: (real) => async (file, flags, mode) => {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const fd = await real(file, flags, mode)
        opened.push(fd)
        return fd
      },
      close: (real) => async (fd) => {
        closed.push(fd)
        return real(fd)
      },
    },
  })
  const rec = createRecorder({ dir, sessionId: 'idle', fs })
  while (fs.calls.open === 0) await new Promise((resolve) => setImmediate(resolve))
  const ready = rec.ready()
  await rec.close()
  // A ready() that was waiting for that open is settled, not left hanging.
  await expect(ready).resolves.toBeUndefined()
  // Let the open land, and whatever follows it.
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(opened).toHaveLength(1)
  expect(closed).toEqual(opened)
})
