import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

describe('sync and async agree: one store, one (native) realpath', () => {
  async function tree(): Promise<string[]> {
    const dir = await tempDir()
    fs.mkdirSync(path.join(dir, 'real', 'deep'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'real', 'deep', 'f.txt'), 'hello')
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'dirlink'))
    fs.symlinkSync('deep/f.txt', path.join(dir, 'real', 'filelink'))
    return [
      dir,
      path.join(dir, 'real'),
      path.join(dir, 'dirlink'),
      path.join(dir, 'dirlink', 'deep', 'f.txt'),
      path.join(dir, 'dirlink', 'filelink'),
      path.join(dir, 'dirlink', 'deep', '..', 'filelink'),
      path.join(dir, 'dirlink') + '/./deep//f.txt',
    ]
  }

  it('realpath and realpathSync give the same answers as fs.realpathSync.native, in either order', async () => {
    for (const p of await tree()) {
      const expected = fs.realpathSync.native(p)
      const first = createPathCache()
      expect(await first.realpath(p)).toBe(expected)
      expect(first.realpathSync(p)).toBe(expected)
      const second = createPathCache()
      expect(second.realpathSync(p)).toBe(expected)
      expect(await second.realpath(p)).toBe(expected)
    }
  })

  it('stat and statSync return the same frozen object; lstat sees the link itself', async () => {
    const paths = await tree()
    const cache = createPathCache()
    for (const p of paths) {
      const a = await cache.stat(p)
      expect(cache.statSync(p)).toBe(a)
      const raw = fs.statSync(p)
      expect(a).toEqual({
        isFile: raw.isFile(),
        isDirectory: raw.isDirectory(),
        isSymbolicLink: false,
        size: raw.size,
        mtimeMs: raw.mtimeMs,
        ino: raw.ino,
        dev: raw.dev,
      })
    }
    const link = paths[2] as string
    expect(cache.lstatSync(link).isSymbolicLink).toBe(true)
    expect((await cache.lstat(link)).isSymbolicLink).toBe(true)
    expect(cache.statSync(link).isSymbolicLink).toBe(false)
  })

  it('an answer stored by one mode is a hit in the other (no syscall)', async () => {
    const [dir] = await tree()
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    cache.realpathSync(dir as string)
    await cache.stat(dir as string)
    counted.reset()
    await cache.realpath(dir as string)
    cache.statSync(dir as string)
    expect(cache.existsSync(dir as string)).toBe(true)
    expect(await cache.isDirectory(dir as string)).toBe(true)
    expect(Object.values(counted.calls).every((n) => n === 0)).toBe(true)
  })

  it('both modes call the native realpath (fs.realpathSync.native), never the JS implementation', async () => {
    const [, , link] = await tree()
    const counted = countingFs()
    const cache = createPathCache({ fs: counted.fs })
    cache.realpathSync(link as string)
    cache.invalidate(link as string)
    await cache.realpath(link as string)
    expect(counted.calls).toMatchObject({ realpathSync: 1, realpath: 1 })
  })
})
