import { describe, expect, it } from 'vitest'
import { createPathCache, FsCacheArgumentError, type PathCacheOptions } from '@sessiontape/fs-cache'

describe('bad input throws a TypeError from one message template, at the call', () => {
  it.for([
    [{ max: 0 }, /^Expected `max` to be an integer between 1 and 1048576, got `0` \(number\)$/],
    [{ max: -1 }, /`max`/],
    [{ max: 1.5 }, /`max`/],
    [{ max: Number.NaN }, /`max`/],
    [{ max: 2 ** 21 }, /`max`/],
    [{ max: '10' }, /got `"10"` \(string\)/],
    [{ ttlMs: -1 }, /^Expected `ttlMs` to be a non-negative number of milliseconds, got `-1` \(number\)$/],
    [{ ttlMs: Number.NaN }, /`ttlMs`/],
    [{ ttlMs: '5' }, /`ttlMs`/],
  ] as [unknown, RegExp][])('createPathCache(%o)', ([options, message]) => {
    expect(() => createPathCache(options as PathCacheOptions)).toThrow(FsCacheArgumentError)
    expect(() => createPathCache(options as PathCacheOptions)).toThrow(message)
  })

  it('a non-object options bag is rejected', () => {
    expect(() => createPathCache(5 as unknown as PathCacheOptions)).toThrow(
      /Expected `options` to be an object/,
    )
  })

  it('accepts the documented range', () => {
    expect(() => createPathCache({ max: 1, ttlMs: 0 })).not.toThrow()
    expect(() => createPathCache({ max: 1_048_576, ttlMs: Infinity })).not.toThrow()
  })

  const cache = createPathCache()
  const calls: [string, (p: unknown) => unknown][] = [
    ['realpath', (p) => cache.realpath(p as string)],
    ['realpathSync', (p) => cache.realpathSync(p as string)],
    ['stat', (p) => cache.stat(p as string)],
    ['statSync', (p) => cache.statSync(p as string)],
    ['lstat', (p) => cache.lstat(p as string)],
    ['lstatSync', (p) => cache.lstatSync(p as string)],
    ['isDirectory', (p) => cache.isDirectory(p as string)],
    ['isDirectorySync', (p) => cache.isDirectorySync(p as string)],
    ['exists', (p) => cache.exists(p as string)],
    ['existsSync', (p) => cache.existsSync(p as string)],
    ['isPathWithin(root)', (p) => cache.isPathWithin(p as string, '/tmp')],
    ['isPathWithin(target)', (p) => cache.isPathWithin('/tmp', p as string)],
    ['isPathWithinSync', (p) => cache.isPathWithinSync('/tmp', p as string)],
    ['findInDir', (p) => cache.findInDir(p as string, 'x')],
    ['ensureDir', (p) => cache.ensureDir(p as string)],
    ['invalidate', (p) => cache.invalidate(p as string)],
  ]
  describe.for(calls)('%s', ([, call]) => {
    it.for([undefined, null, '', 42, {}] as unknown[])('throws synchronously for %o', (bad) => {
      let thrown: unknown
      try {
        const result = call(bad)
        // An async method must not turn misuse into a rejection: the throw happens before any promise.
        if (result instanceof Promise) result.catch(() => undefined)
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(TypeError)
      expect(thrown).toMatchObject({ code: 'ERR_FS_CACHE_INVALID_ARGUMENT' })
      expect((thrown as Error).message).toMatch(/^Expected `\w+` to be a non-empty string, got `.*` \(\w+\)$/)
    })
  })

  it('invalidate rejects a non-boolean deep', () => {
    expect(() => cache.invalidate('/tmp', { deep: 'yes' as unknown as boolean })).toThrow(/`options.deep`/)
  })
})
