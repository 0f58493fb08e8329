import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

/** Which of `names` (relative to `dir`) are still answered without a syscall. */
function stillCached(
  cache: ReturnType<typeof createPathCache>,
  counted: ReturnType<typeof countingFs>,
  dir: string,
  names: string[],
): string[] {
  return names.filter((name) => {
    counted.reset()
    cache.statSync(path.join(dir, name))
    return counted.calls.statSync === 0
  })
}

describe('invalidate(path, { deep }) respects path-separator boundaries', () => {
  const names = ['a', 'a/b', 'a/b/c', 'a/bc', 'a/b.txt', 'ab']

  async function setUp(): Promise<{
    dir: string
    cache: ReturnType<typeof createPathCache>
    counted: ReturnType<typeof countingFs>
  }> {
    const dir = await tempDir()
    for (const d of ['a/b/c', 'a/bc', 'ab']) fs.mkdirSync(path.join(dir, d), { recursive: true })
    fs.writeFileSync(path.join(dir, 'a/b.txt'), '')
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    for (const name of names) cache.statSync(path.join(dir, name))
    return { dir, cache, counted }
  }

  it('deep drops /a/b and /a/b/c but keeps /a/bc, /a/b.txt, /a and /ab', async () => {
    const { dir, cache, counted } = await setUp()
    expect(cache.invalidate(path.join(dir, 'a/b'), { deep: true })).toBe(2)
    expect(stillCached(cache, counted, dir, names)).toEqual(['a', 'a/bc', 'a/b.txt', 'ab'])
  })

  it('a trailing separator on the invalidated path changes nothing', async () => {
    const { dir, cache, counted } = await setUp()
    cache.invalidate(path.join(dir, 'a/b') + path.sep, { deep: true })
    expect(stillCached(cache, counted, dir, names)).toEqual(['a', 'a/bc', 'a/b.txt', 'ab'])
  })

  it('without deep only the path itself goes', async () => {
    const { dir, cache, counted } = await setUp()
    expect(cache.invalidate(path.join(dir, 'a/b'))).toBe(1)
    expect(stillCached(cache, counted, dir, names)).toEqual(['a', 'a/b/c', 'a/bc', 'a/b.txt', 'ab'])
  })

  it('matches keys by their normalised spelling (/a/./b/c is under /a/b)', async () => {
    const { dir, cache, counted } = await setUp()
    cache.statSync(path.join(dir, 'a') + '/./b/c')
    cache.invalidate(path.join(dir, 'a/b'), { deep: true })
    counted.reset()
    cache.statSync(path.join(dir, 'a') + '/./b/c')
    expect(counted.calls.statSync).toBe(1)
  })

  it('after a rename, a deep invalidate makes the old subtree answer from disk', async () => {
    const { dir, cache } = await setUp()
    fs.renameSync(path.join(dir, 'a/b'), path.join(dir, 'moved'))
    // Stale until told: the cache has no watcher (documented).
    expect(cache.existsSync(path.join(dir, 'a/b/c'))).toBe(true)
    cache.invalidate(path.join(dir, 'a/b'), { deep: true })
    expect(cache.existsSync(path.join(dir, 'a/b/c'))).toBe(false)
    expect(cache.existsSync(path.join(dir, 'moved/c'))).toBe(true)
  })
})
