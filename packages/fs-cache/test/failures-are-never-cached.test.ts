import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPathCache } from '@sessiontape/fs-cache'
import { countingFs, errnoError } from './helpers/counting-fs.js'
import { tempDir } from './helpers/temp-dir.js'

type Cache = ReturnType<typeof createPathCache>

/** Every lookup that can fail, in both modes, as "call it and give me the error". */
const failing: [string, (c: Cache, p: string) => Promise<unknown>][] = [
  ['stat', (c, p) => c.stat(p)],
  ['statSync', (c, p) => new Promise((resolve) => resolve(c.statSync(p)))],
  ['lstat', (c, p) => c.lstat(p)],
  ['lstatSync', (c, p) => new Promise((resolve) => resolve(c.lstatSync(p)))],
  ['realpath', (c, p) => c.realpath(p)],
  ['realpathSync', (c, p) => new Promise((resolve) => resolve(c.realpathSync(p)))],
]

async function errorOf(run: () => Promise<unknown>): Promise<NodeJS.ErrnoException> {
  try {
    await run()
  } catch (err) {
    return err as NodeJS.ErrnoException
  }
  throw new Error('expected a failure')
}

/** What node:fs itself reports for the same call, to compare code and path. */
function rawError(op: string, p: string): NodeJS.ErrnoException {
  const raw: Record<string, (p: string) => unknown> = {
    stat: fs.statSync,
    statSync: fs.statSync,
    lstat: fs.lstatSync,
    lstatSync: fs.lstatSync,
    realpath: fs.realpathSync.native,
    realpathSync: fs.realpathSync.native,
  }
  try {
    raw[op]?.(p)
  } catch (err) {
    return err as NodeJS.ErrnoException
  }
  throw new Error('expected node:fs to fail too')
}

describe('failures are never cached', () => {
  describe.for(failing)('%s', ([op, call]) => {
    it('ENOENT comes back unchanged, and a file created right after the miss is seen on the next call', async () => {
      const dir = await tempDir()
      const cache = createPathCache()
      const file = path.join(dir, 'later.txt')
      const err = await errorOf(() => call(cache, file))
      const raw = rawError(op, file)
      expect(err.code).toBe('ENOENT')
      expect(err.code).toBe(raw.code)
      expect(err.path).toBe(raw.path)
      fs.writeFileSync(file, 'now')
      await expect(call(cache, file)).resolves.toBeDefined()
      expect(cache.stats().size).toBe(1)
    })

    it('ENOTDIR (a file used as a directory) comes back unchanged and is asked again', async () => {
      const dir = await tempDir()
      const cache = createPathCache()
      const blocker = path.join(dir, 'blocker')
      fs.writeFileSync(blocker, '')
      const target = path.join(blocker, 'x')
      const err = await errorOf(() => call(cache, target))
      expect(err.code).toBe('ENOTDIR')
      expect(err.path).toBe(rawError(op, target).path)
      fs.rmSync(blocker)
      fs.mkdirSync(target, { recursive: true })
      await expect(call(cache, target)).resolves.toBeDefined()
    })

    it('ELOOP (a symlink cycle) comes back unchanged and is asked again', async () => {
      const dir = await tempDir()
      const cache = createPathCache()
      const a = path.join(dir, 'a')
      fs.symlinkSync(path.join(dir, 'b'), a)
      fs.symlinkSync(a, path.join(dir, 'b'))
      const through = path.join(a, 'x')
      const err = await errorOf(() => call(cache, through))
      expect(err.code).toBe('ELOOP')
      fs.rmSync(path.join(dir, 'b'))
      fs.mkdirSync(path.join(dir, 'b', 'x'), { recursive: true })
      await expect(call(cache, through)).resolves.toBeDefined()
    })

    it('EACCES is passed through as the same error object, and the next call asks the file system again', async () => {
      const dir = await tempDir()
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const injected = errnoError('EACCES', op, dir)
      counted.failWith = () => injected
      expect(await errorOf(() => call(cache, dir))).toBe(injected)
      expect(await errorOf(() => call(cache, dir))).toBe(injected)
      counted.failWith = undefined
      await expect(call(cache, dir)).resolves.toBeDefined()
      const total = Object.values(counted.calls).reduce((a, b) => a + b, 0)
      expect(total).toBe(3)
    })
  })

  it.for(['async', 'sync'] as const)(
    '%s exists/isDirectory: false for a missing path, never stored, true right after creation',
    async (mode) => {
      const dir = await tempDir()
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const sub = path.join(dir, 'sub')
      const exists = (p: string): Promise<boolean> =>
        mode === 'async' ? cache.exists(p) : Promise.resolve(cache.existsSync(p))
      const isDir = (p: string): Promise<boolean> =>
        mode === 'async' ? cache.isDirectory(p) : Promise.resolve(cache.isDirectorySync(p))
      expect(await exists(sub)).toBe(false)
      expect(await isDir(sub)).toBe(false)
      expect(await exists(path.join(dir, 'nofile', 'deeper'))).toBe(false)
      expect(cache.stats().size).toBe(0)
      fs.mkdirSync(sub)
      expect(await exists(sub)).toBe(true)
      expect(await isDir(sub)).toBe(true)
      // Now positive and stored: the second answer cost no syscall.
      const before = counted.calls.stat + counted.calls.statSync
      expect(await isDir(sub)).toBe(true)
      expect(counted.calls.stat + counted.calls.statSync).toBe(before)
    },
  )

  it.for(['async', 'sync'] as const)(
    '%s exists/isDirectory report failures other than "missing" instead of guessing false',
    async (mode) => {
      const dir = await tempDir()
      const counted = countingFs()
      const cache = createPathCache({ fs: counted.fs })
      const injected = errnoError('EACCES', 'stat', dir)
      counted.failWith = () => injected
      if (mode === 'async') {
        await expect(cache.exists(dir)).rejects.toBe(injected)
        await expect(cache.isDirectory(dir)).rejects.toBe(injected)
      } else {
        expect(() => cache.existsSync(dir)).toThrow(injected)
        expect(() => cache.isDirectorySync(dir)).toThrow(injected)
      }
    },
  )
})
