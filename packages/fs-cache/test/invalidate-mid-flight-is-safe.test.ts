import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { resetAllForTest } from '../src/registry.js'
import { countingFs, deferred } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>
const interrupts: [string, (c: Cache, p: string) => void][] = [
  ['invalidate(path)', (c, p) => void c.invalidate(p)],
  ['invalidate(parent, deep)', (c, p) => void c.invalidate(path.dirname(p), { deep: true })],
  ['clear()', (c) => c.clear()],
  ['resetAllForTest()', () => resetAllForTest()],
]

describe('invalidation during an in-flight lookup', () => {
  it.for(interrupts)(
    '%s: waiting callers still get their answer, but it is not stored',
    async ([, interrupt]) => {
      const dir = await tempDir()
      const file = path.join(dir, 'f')
      fs.writeFileSync(file, 'old')
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const gate = deferred()
      counted.gate = gate.promise
      const waiting = Promise.all([cache.stat(file), cache.stat(file), cache.realpath(file)])
      interrupt(cache, file)
      gate.resolve()
      const [a, b, real] = await waiting
      expect(a.size).toBe(3)
      expect(b).toBe(a)
      expect(real).toBe(file)
      counted.reset()
      fs.writeFileSync(file, 'newer')
      // The in-flight answer (size 3) was not stored: the file system is asked, and the new size seen.
      await expect(cache.stat(file)).resolves.toMatchObject({ size: 5 })
      expect(counted.calls.stat).toBe(1)
    },
  )

  it('a lookup that starts after invalidate() does not join the older one in flight', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'f')
    fs.writeFileSync(file, 'old')
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    const first = deferred()
    counted.gate = first.promise
    const before = cache.stat(file)
    cache.invalidate(file)
    counted.gate = undefined
    const after = cache.stat(file)
    expect(counted.calls.stat).toBe(2)
    first.resolve()
    await Promise.all([before, after])
    // The fresh lookup (started after invalidate) was stored; the older one was not allowed to overwrite.
    counted.reset()
    await cache.stat(file)
    expect(counted.calls.stat).toBe(0)
  })

  it('an in-flight result is still stored when nothing was invalidated', async () => {
    const dir = await tempDir()
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    const gate = deferred()
    counted.gate = gate.promise
    const waiting = cache.realpath(dir)
    gate.resolve()
    await waiting
    counted.reset()
    await cache.realpath(dir)
    expect(counted.calls.realpath).toBe(0)
  })
})
