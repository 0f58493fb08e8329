import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('the store is bounded by count and evicts the least recently used path', () => {
  it('never holds more than max paths, and counts evictions', async () => {
    const dir = await tempDir()
    const cache = createPathCache({ max: 8 })
    for (let i = 0; i < 50; i++) {
      const file = path.join(dir, `f${i}`)
      fs.writeFileSync(file, '')
      await cache.stat(file)
      cache.realpathSync(file)
      expect(cache.stats().size).toBeLessThanOrEqual(8)
    }
    expect(cache.stats().size).toBe(8)
    expect(cache.stats().evictions).toBe(42)
    // Nothing of the evicted 42 lingers anywhere: a deep invalidate of the whole dir finds exactly 8.
    expect(cache.invalidate(dir, { deep: true })).toBe(8)
    expect(cache.stats().size).toBe(0)
  })

  it('a recently used path survives; the least recently used one is asked again', async () => {
    const dir = await tempDir()
    const counted = countingFs()
    const cache = createPathCache({ max: 3, fs: counted.fs })
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => {
      fs.writeFileSync(path.join(dir, n), '')
      return path.join(dir, n)
    }) as [string, string, string, string]
    cache.statSync(a)
    cache.statSync(b)
    cache.statSync(c)
    cache.statSync(a) // a is now the most recently used; b is the oldest
    cache.statSync(d) // evicts b
    counted.reset()
    cache.statSync(a)
    cache.statSync(c)
    cache.statSync(d)
    expect(counted.calls.statSync).toBe(0)
    cache.statSync(b)
    expect(counted.calls.statSync).toBe(1)
  })

  it('stat, lstat and realpath of one path share one slot', async () => {
    const dir = await tempDir()
    const cache = createPathCache({ max: 2 })
    await cache.stat(dir)
    await cache.lstat(dir)
    await cache.realpath(dir)
    cache.statSync(dir)
    expect(cache.stats().size).toBe(1)
    expect(cache.stats().evictions).toBe(0)
  })
})
