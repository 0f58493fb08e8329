import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('ttlMs bounds how long an answer is served', () => {
  it('an answer older than ttlMs is asked again; a younger one is a hit', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'f')
    fs.writeFileSync(file, 'a')
    let now = 1_000
    const counted = countingFs()
    const cache = createPathCache({ ttlMs: 500, fs: counted.fs, now: () => now })
    expect((await cache.stat(file)).size).toBe(1)
    fs.writeFileSync(file, 'abc')
    now += 499
    expect((await cache.stat(file)).size).toBe(1)
    now += 1
    expect((await cache.stat(file)).size).toBe(3)
    expect(counted.calls.stat).toBe(2)
  })

  it('each operation of a path ages on its own clock', async () => {
    const dir = await tempDir()
    let now = 0
    const counted = countingFs()
    const cache = createPathCache({ ttlMs: 100, fs: counted.fs, now: () => now })
    cache.statSync(dir)
    now = 60
    cache.realpathSync(dir)
    now = 120
    counted.reset()
    cache.realpathSync(dir)
    cache.statSync(dir)
    expect(counted.calls).toMatchObject({ realpathSync: 0, statSync: 1 })
  })

  it('ttlMs: 0 serves nothing from the store, but concurrent lookups are still shared', async () => {
    const dir = await tempDir()
    const counted = countingFs()
    const cache = createPathCache({ ttlMs: 0, fs: counted.fs })
    await Promise.all([cache.stat(dir), cache.stat(dir), cache.stat(dir)])
    expect(counted.calls.stat).toBe(1)
    await cache.stat(dir)
    cache.statSync(dir)
    expect(counted.calls.stat + counted.calls.statSync).toBe(3)
    expect(cache.stats().size).toBe(0)
  })

  it('without ttlMs an answer stays until invalidated (the documented staleness window)', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'f')
    fs.writeFileSync(file, 'a')
    const cache = createPathCache()
    expect(cache.statSync(file).size).toBe(1)
    fs.writeFileSync(file, 'abcd')
    expect(cache.statSync(file).size).toBe(1)
    cache.invalidate(file)
    expect(cache.statSync(file).size).toBe(4)
  })
})
