import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache, FsCacheArgumentError } from '@sessiontape/fs-cache'
import { countingFs, errnoError } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>
const modes: [string, (c: Cache, dir: string, name: string) => Promise<string | undefined>][] = [
  ['async', (c, dir, name) => c.findInDir(dir, name)],
  ['sync', (c, dir, name) => new Promise((resolve) => resolve(c.findInDirSync(dir, name)))],
]

/** Backdate a directory so its mtime is out of the racy window and answers may be remembered. */
function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000)
  fs.utimesSync(dir, past, past)
}

const syscalls = (counted: ReturnType<typeof countingFs>): number =>
  counted.calls.stat + counted.calls.statSync

describe.for(modes)(
  'findInDir (%s) remembers an answer only while the directory is unchanged',
  ([, find]) => {
    it('a remembered absence costs one stat of the directory', async () => {
      const dir = await tempDir()
      settle(dir)
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
      expect(syscalls(counted)).toBe(2)
      counted.reset()
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
      expect(syscalls(counted)).toBe(1)
      expect(counted.log[0]?.path).toBe(dir)
    })

    it('an ignore file created mid-session is found on the very next call, and its removal too', async () => {
      const dir = await tempDir()
      settle(dir)
      const cache = createPathCache()
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
      fs.writeFileSync(path.join(dir, '.gitignore'), 'dist\n')
      expect(await find(cache, dir, '.gitignore')).toBe(path.join(dir, '.gitignore'))
      settle(dir)
      expect(await find(cache, dir, '.gitignore')).toBe(path.join(dir, '.gitignore'))
      fs.rmSync(path.join(dir, '.gitignore'))
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
    })

    it('a directory changed within the racy window is not remembered (two stats per call)', async () => {
      const dir = await tempDir()
      fs.writeFileSync(path.join(dir, 'touch'), '')
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      await find(cache, dir, '.gitignore')
      counted.reset()
      await find(cache, dir, '.gitignore')
      expect(syscalls(counted)).toBe(2)
    })

    it('an unchanged mtime on a different directory (replaced by rename) does not reuse the answer', async () => {
      const top = await tempDir()
      const dir = path.join(top, 'd')
      fs.mkdirSync(dir)
      settle(dir)
      const cache = createPathCache()
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
      const other = path.join(top, 'other')
      fs.mkdirSync(other)
      fs.writeFileSync(path.join(other, '.gitignore'), '')
      const stamp = fs.statSync(dir).mtime
      fs.utimesSync(other, stamp, stamp)
      fs.rmSync(dir, { recursive: true })
      fs.renameSync(other, dir)
      fs.utimesSync(dir, stamp, stamp)
      expect(await find(cache, dir, '.gitignore')).toBe(path.join(dir, '.gitignore'))
    })

    it('a missing directory, a file instead of a directory, and a directory named like the file give undefined', async () => {
      const dir = await tempDir()
      const cache = createPathCache()
      fs.writeFileSync(path.join(dir, 'plain'), '')
      fs.mkdirSync(path.join(dir, '.gitignore'))
      expect(await find(cache, path.join(dir, 'missing'), '.gitignore')).toBeUndefined()
      expect(await find(cache, path.join(dir, 'plain'), '.gitignore')).toBeUndefined()
      expect(await find(cache, dir, '.gitignore')).toBeUndefined()
    })

    it('a failure other than "missing" (EACCES) is reported, not answered', async () => {
      const dir = await tempDir()
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const injected = errnoError('EACCES', 'stat', dir)
      counted.failWith = () => injected
      await expect(find(cache, dir, '.gitignore')).rejects.toBe(injected)
      counted.failWith = (_op, p) => (p.endsWith('.gitignore') ? injected : undefined)
      await expect(find(cache, dir, '.gitignore')).rejects.toBe(injected)
    })

    it('invalidate(dir) forgets the remembered answer', async () => {
      const dir = await tempDir()
      settle(dir)
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      await find(cache, dir, '.gitignore')
      cache.invalidate(dir)
      counted.reset()
      await find(cache, dir, '.gitignore')
      expect(syscalls(counted)).toBe(2)
    })
  },
)

describe('findInDir input', () => {
  it('a name that is not a single path component is a TypeError at the call, in both modes', () => {
    const cache = createPathCache()
    for (const bad of ['', '.', '..', 'a/b', undefined]) {
      expect(() => void cache.findInDir('/tmp', bad as string)).toThrow(FsCacheArgumentError)
      expect(() => cache.findInDirSync('/tmp', bad as string)).toThrow(FsCacheArgumentError)
    }
  })
})
