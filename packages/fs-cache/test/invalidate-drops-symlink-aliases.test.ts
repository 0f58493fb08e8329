import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('invalidating a path also drops entries whose cached realpath lies under it', () => {
  async function setUp(): Promise<{
    dir: string
    real: string
    link: string
    cache: ReturnType<typeof createPathCache>
    counted: ReturnType<typeof countingFs>
  }> {
    const dir = await tempDir()
    const real = path.join(dir, 'real')
    fs.mkdirSync(path.join(real, 'sub'), { recursive: true })
    const link = path.join(dir, 'link')
    fs.symlinkSync(real, link)
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    return { dir, real, link, cache, counted }
  }

  it('invalidate(real) drops the realpath cached under the symlink spelling', async () => {
    const { real, link, cache, counted } = await setUp()
    expect(cache.realpathSync(link)).toBe(real)
    expect(cache.realpathSync(path.join(link, 'sub'))).toBe(path.join(real, 'sub'))
    cache.invalidate(real)
    counted.reset()
    cache.realpathSync(link)
    cache.realpathSync(path.join(link, 'sub'))
    // Exact invalidate: the alias of `real` goes, the alias of `real/sub` stays.
    expect(counted.calls.realpathSync).toBe(1)
    cache.invalidate(real, { deep: true })
    counted.reset()
    cache.realpathSync(link)
    cache.realpathSync(path.join(link, 'sub'))
    expect(counted.calls.realpathSync).toBe(2)
  })

  it('the symlink retargeted: after invalidate(real, deep), the alias resolves to the new target', async () => {
    const { dir, real, link, cache } = await setUp()
    expect(cache.realpathSync(link)).toBe(real)
    const other = path.join(dir, 'other')
    fs.mkdirSync(other)
    fs.rmSync(real, { recursive: true })
    fs.rmSync(link)
    fs.symlinkSync(other, link)
    cache.invalidate(real, { deep: true })
    await expect(cache.realpath(link)).resolves.toBe(other)
  })

  it('invalidate(link, deep) also drops entries stored under the link target spelling', async () => {
    const { real, link, cache, counted } = await setUp()
    await cache.realpath(link)
    await cache.stat(path.join(real, 'sub'))
    cache.invalidate(link, { deep: true })
    counted.reset()
    await cache.stat(path.join(real, 'sub'))
    expect(counted.calls.stat).toBe(1)
  })
})
