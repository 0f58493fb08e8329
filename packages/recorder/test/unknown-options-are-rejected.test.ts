import { describe, expect, it } from 'vitest'

import path from 'node:path'

import {
  createRecorder,
  inspectTailSync,
  listSessions,
  readSession,
  repairTornTail,
  repairTranscript,
  streamRecords,
  type RecorderOptions,
} from '../src/index.js'
import { tempDir } from './helpers/temp-dir.js'

describe('createRecorder() rejects options it would not read', () => {
  it.for([
    ['fsycn', /Unknown option `fsycn` for createRecorder\(\)\. Did you mean `fsync`\?/],
    ['maxQueueChar', /Did you mean `maxQueueChars`\?/],
    ['sync', /Unknown option `sync`.*flushSync\(\)/],
    ['minLength', /group-committed/],
    ['maxLength', /use `maxQueueChars`/],
    ['append', /use `resume: true`/],
    ['colour', /Unknown option `colour`.*Known options: dir, sessionId/],
  ] as const)('`%s` is a TypeError naming it (%s)', async ([key, message]) => {
    const dir = await tempDir()
    const options = { dir, [key]: true } as unknown as RecorderOptions
    expect(() => createRecorder(options)).toThrow(TypeError)
    expect(() => createRecorder(options)).toThrow(message)
  })

  it('the message lists the documented options, never the internal `fs` test seam', async () => {
    const dir = await tempDir()
    const options = { dir, colour: true } as unknown as RecorderOptions
    expect(() => createRecorder(options)).toThrow(/Known options: dir, sessionId, .*profileFields$/)
    expect(() => createRecorder(options)).not.toThrow(/\bfs\b(?!ync)/)
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

describe('every other options bag of the recorder package rejects keys it would not read', () => {
  it('record() options: an unknown key is an InvalidRecordError and nothing is recorded', async () => {
    const dir = await tempDir()
    const rec = createRecorder({ dir, meta: false })
    expect(() => rec.record('x', {}, { parentUUID: null } as unknown as { parentUuid: null })).toThrow(
      /Unknown record option `parentUUID`/,
    )
    expect(rec.stats().recorded).toBe(0)
    await rec.close()
  })

  it.for([
    ['readSession', (file: string) => readSession(file, { maxBytes: 1 } as never)],
    [
      'streamRecords',
      (file: string) =>
        Promise.resolve().then(() => streamRecords(file, { onproblem: () => {} } as never).next()),
    ],
    ['listSessions', (file: string) => listSessions(path.dirname(file), { rebuild: true } as never)],
    ['repairTranscript', (file: string) => repairTranscript(file, { dryrun: true } as never)],
    [
      'inspectTailSync',
      (file: string) => Promise.resolve().then(() => inspectTailSync(file, { max: 1 } as never)),
    ],
    ['repairTornTail', (file: string) => repairTornTail(file, { length: 1 } as never)],
  ] as const)('%s', async ([, call]) => {
    const dir = await tempDir()
    await expect(call(path.join(dir, 's.jsonl'))).rejects.toThrow(/Unknown option/)
  })
})
