// A stored realpath goes stale when a directory is swapped for a symlink behind the cache's back (a shell
// command, another process). `{ verify: true }` trusts no stored answer for that one check, and what it
// learns replaces the stale entries, so later plain checks are right again too.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache, type IsPathWithinOptions } from '@sessiontape/fs-cache'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>
type Within = (c: Cache, root: string, target: string, options?: IsPathWithinOptions) => Promise<boolean>
const modes: [string, Within][] = [
  ['async', (c, root, target, options) => c.isPathWithin(root, target, options)],
  [
    'sync',
    (c, root, target, options) =>
      new Promise((resolve) => resolve(c.isPathWithinSync(root, target, options))),
  ],
]

describe.for(modes)('isPathWithin (%s) with verify', ([, within]) => {
  async function swapped(cache: Cache): Promise<{ ws: string; dir: string }> {
    const top = await tempDir()
    const ws = path.join(top, 'ws')
    const outside = path.join(top, 'outside')
    const dir = path.join(ws, 'build')
    fs.mkdirSync(path.join(dir, 'out'), { recursive: true })
    fs.mkdirSync(path.join(outside, 'out'), { recursive: true })
    // Checked once while `build` is a plain directory: its realpath (and `build/out`'s) are stored.
    expect(await within(cache, ws, path.join(dir, 'out'))).toBe(true)
    fs.rmSync(dir, { recursive: true })
    fs.symlinkSync(outside, dir)
    return { ws, dir }
  }

  it('without it, the stored answer is served (the documented staleness window)', async () => {
    const cache = createPathCache()
    const { ws, dir } = await swapped(cache)
    expect(await within(cache, ws, path.join(dir, 'out'))).toBe(true)
  })

  it('with it, the swap is seen, and the refreshed store answers later plain checks correctly', async () => {
    const cache = createPathCache()
    const { ws, dir } = await swapped(cache)
    expect(await within(cache, ws, path.join(dir, 'out'), { verify: true })).toBe(false)
    expect(await within(cache, ws, path.join(dir, 'out'))).toBe(false)
    expect(await within(cache, ws, path.join(dir, 'new-file'))).toBe(false)
  })

  it('a verified answer that did not change keeps being served from the store', async () => {
    const top = await tempDir()
    const cache = createPathCache()
    expect(await within(cache, top, top, { verify: true })).toBe(true)
    const before = cache.stats()
    expect(await within(cache, top, top)).toBe(true)
    expect(cache.stats().misses).toBe(before.misses)
  })

  it('rejects a verify that is not a boolean, at the call', () => {
    const cache = createPathCache()
    expect(() => cache.isPathWithinSync('/', '/', { verify: 'yes' as never })).toThrow(
      /^Expected `options.verify` to be a boolean, got `"yes"` \(string\)$/,
    )
    expect(() => void cache.isPathWithin('/', '/', { verify: 1 as never })).toThrow(TypeError)
  })
})
