import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { tempDir } from './helpers/temp-dir.js'

describe('stats() counts hits, misses, joins, evictions and invalidations', () => {
  it('tracks a scripted sequence exactly', async () => {
    const dir = await tempDir()
    for (const n of ['a', 'b', 'c']) fs.writeFileSync(path.join(dir, n), '')
    const cache = createPathCache({ max: 2 })
    const [a, b, c] = ['a', 'b', 'c'].map((n) => path.join(dir, n)) as [string, string, string]
    await Promise.all([cache.stat(a), cache.stat(a), cache.stat(a)]) // 1 miss, 2 joins
    cache.statSync(a) // hit
    await cache.exists(path.join(dir, 'nope')) // miss (never stored)
    cache.statSync(b) // miss
    cache.statSync(c) // miss, evicts a
    cache.realpathSync(c) // miss, same slot as c
    expect(cache.stats()).toEqual({
      hits: 1,
      misses: 5,
      inflightJoins: 2,
      evictions: 1,
      invalidations: 0,
      size: 2,
    })
    expect(cache.invalidate(c)).toBe(1)
    cache.clear()
    expect(cache.stats()).toMatchObject({ invalidations: 2, size: 0 })
  })

  it('findInDir counts a reused answer as a hit and a fresh probe as a miss', async () => {
    const dir = await tempDir()
    const past = new Date(Date.now() - 60_000)
    fs.utimesSync(dir, past, past)
    const cache = createPathCache()
    await cache.findInDir(dir, '.gitignore')
    await cache.findInDir(dir, '.gitignore')
    cache.findInDirSync(dir, '.gitignore')
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1 })
  })

  it('stat results are slim and frozen, not fs.Stats', async () => {
    const dir = await tempDir()
    const cache = createPathCache()
    const st = await cache.stat(dir)
    expect(Object.keys(st).sort()).toEqual([
      'dev',
      'ino',
      'isDirectory',
      'isFile',
      'isSymbolicLink',
      'mtimeMs',
      'size',
    ])
    expect(Object.isFrozen(st)).toBe(true)
    expect(st).not.toBeInstanceOf(fs.Stats)
    expect(() => {
      ;(st as { size: number }).size = 1
    }).toThrow(TypeError)
  })
})
