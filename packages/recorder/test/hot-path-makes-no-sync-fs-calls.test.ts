import fs from 'node:fs'
import { afterEach, expect, it, vi } from 'vitest'

import { createRecorder } from '../src/index.js'
import { fakeFs } from './helpers/fake-fs.js'
import { tempDir } from './helpers/temp-dir.js'
import { readTranscript } from './helpers/transcript.js'

// Every synchronous function of node:fs, spied on the module object itself: any code path (ours, the lock's
// heartbeat, the meta sidecar) that calls one at run time is counted.
const syncNames = Object.keys(fs).filter(
  (name) => name.endsWith('Sync') && typeof (fs as unknown as Record<string, unknown>)[name] === 'function',
) as Array<keyof typeof fs>

afterEach(() => {
  vi.restoreAllMocks()
})

it('after createRecorder returns, recording, flushing and closing make zero synchronous fs calls', async () => {
  // proper-lockfile is loaded by a dynamic import() on the first lock of the process (so that bundlers follow
  // it and importing the recorder does nothing); Node's module loader reads its files synchronously, once.
  // That one-time load is documented (README guarantee 1); it is done here first so the count is the hot
  // path's own.
  const warm = createRecorder({ dir: await tempDir() })
  await warm.close()
  const dir = await tempDir()
  const seam = fakeFs()
  const rec = createRecorder({ dir, fs: seam, fsync: 'batch', metaDebounceMs: 0 })
  seam.resetCounts()
  // Each call is kept with its stack, so a failure names the code path that made it.
  const calls: string[] = []
  for (const name of syncNames) {
    const original = (fs as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!
    vi.spyOn(fs, name as 'statSync').mockImplementation(function (this: unknown, ...args: unknown[]) {
      calls.push(`${name}(${String(args[0])})\n${new Error().stack ?? ''}`)
      return original.apply(this, args)
    } as never)
  }

  for (let burst = 0; burst < 20; burst++) {
    for (let i = 0; i < 100; i++) rec.record('chat', { burst, i, text: 'x'.repeat(500) })
    await new Promise((resolve) => setImmediate(resolve))
  }
  rec.record('title', { title: 'a session' })
  await rec.flush()
  await rec.close()

  vi.restoreAllMocks()
  expect(calls).toEqual([])
  expect(seam.syncCalls()).toBe(0)
  expect(seam.calls.write).toBeGreaterThan(0)
  expect(readTranscript(rec.filePath)).toHaveLength(2001)
})
