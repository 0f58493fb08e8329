import { expect, it } from 'vitest'

import { createRecorder } from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

it('writes the data as it was when record() was called, whatever happens to it afterwards', async () => {
  const dir = await tempDir()
  const rec = createRecorder({ dir })
  const data = { text: 'original', parts: [{ kind: 'text', value: 'one' }], meta: { tokens: 1 } }
  rec.record('assistant', data)
  // Mutate everything reachable, synchronously and after a tick (before the write happens).
  data.text = 'mutated'
  data.parts[0]!.value = 'changed'
  data.parts.push({ kind: 'text', value: 'added' })
  data.meta.tokens = 999
  await new Promise((resolve) => setImmediate(resolve))
  Object.assign(data, { extra: true })
  await rec.close()
  const [record] = readTranscript(rec.filePath)
  expect(record).toMatchObject({
    text: 'original',
    parts: [{ kind: 'text', value: 'one' }],
    meta: { tokens: 1 },
  })
  expect(record).not.toHaveProperty('extra')
})
