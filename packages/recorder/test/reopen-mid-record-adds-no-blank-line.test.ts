import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { errno, fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// A record half written when the descriptor went bad (EBADF: closed under us) is finished after the reopen
// from its next byte. The file then ends inside that record: the torn-line rule that starts our first line
// on a fresh line when a file ends without a newline must not fire for our own half record, or the next
// record would be preceded by an empty line.
it('after a reopen in the middle of a record, the record is finished and the next one follows on the next line', async () => {
  const dir = await tempDir()
  let writes = 0
  const fs = fakeFs({
    overrides: {
      write: (real) => async (fd, buffer, offset, length) => {
        writes++
        if (writes === 1) return real(fd, buffer, offset, Math.floor(length / 2))
        if (writes === 2) throw errno('EBADF')
        return real(fd, buffer, offset, length)
      },
    },
  })
  const rec = createRecorder({ dir, sessionId: 'ebadf', fsync: 'never', fs, onError: () => {} })
  await rec.ready()
  const first = rec.record('event', { text: 'a'.repeat(100) })
  await rec.flush().catch(() => {})
  await rec.flush()
  const second = rec.record('event', { text: 'b' })
  await rec.close()
  expect(readTranscript(rec.filePath).map((r) => r.uuid)).toEqual([first, second])
})
