import { describe, expect, it } from 'vitest'

import { createRecorder, type RecorderOptions } from '../src/index.js'
import { tempDir } from './support/temp-dir.js'

describe('createRecorder() rejects options it would not read', () => {
  it.for([
    ['fsycn', /Unknown option `fsycn` for createRecorder\(\)\. Did you mean `fsync`\?/],
    ['maxQueueByte', /Did you mean `maxQueueBytes`\?/],
    ['sync', /Unknown option `sync`.*flushSync\(\)/],
    ['minLength', /group-committed/],
    ['maxLength', /use `maxQueueBytes`/],
    ['append', /use `resume: true`/],
    ['colour', /Unknown option `colour`.*Known options: dir, sessionId/],
  ] as const)('`%s` is a TypeError naming it (%s)', async ([key, message]) => {
    const dir = await tempDir()
    const options = { dir, [key]: true } as unknown as RecorderOptions
    expect(() => createRecorder(options)).toThrow(TypeError)
    expect(() => createRecorder(options)).toThrow(message)
  })

  it('every documented option is accepted', async () => {
    const dir = await tempDir()
    const rec = createRecorder({
      dir,
      sessionId: 'all-options',
      resume: false,
      fsync: 'flush',
      lock: true,
      lockStaleMs: 10_000,
      maxQueueBytes: 1024 * 1024,
      overflow: 'drain-sync',
      maxWriteBytes: 4096,
      fileCheckIntervalMs: 1000,
      meta: true,
      metaDebounceMs: 10,
      exitDrainMs: 1000,
      onError: () => {},
      redact: (record) => record,
    })
    rec.record('ok')
    await rec.close()
  })

  it.for([-1, 1.5, '5'])('exitDrainMs %s is a TypeError', async (exitDrainMs) => {
    const dir = await tempDir()
    expect(() => createRecorder({ dir, exitDrainMs } as unknown as RecorderOptions)).toThrow(
      /Expected `exitDrainMs` to be an integer >= 0/,
    )
  })
})
