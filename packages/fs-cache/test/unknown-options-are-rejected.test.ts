// An option nobody reads used to be accepted silently: `createPathCache({ ttl: 500 })` (lru-cache's name)
// applied no expiry at all, so a changed file kept its old size. Every options bag now rejects an unknown
// key at the call, naming it and the nearest known option, or our name for a well-known foreign one.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createPathCache,
  ensureDir,
  ensureDirSync,
  forgetDir,
  FsCacheArgumentError,
  type PathCacheOptions,
} from '@sessiontape/fs-cache'
import { tempDir } from './helpers/temp-dir.js'

const cache = createPathCache()
const cases: [string, () => unknown, RegExp][] = [
  [
    'createPathCache({ ttl: 500 })',
    () => createPathCache({ ttl: 500 } as PathCacheOptions),
    /^Unknown option `ttl` in createPathCache\(options\): lru-cache's `ttl` is `ttlMs` here \(milliseconds\)$/,
  ],
  [
    'createPathCache({ maxSize: 1e6 })',
    () => createPathCache({ maxSize: 1e6 } as PathCacheOptions),
    /`maxSize`.*bounded by entry count, `max`/,
  ],
  [
    'createPathCache({ allowStale: true })',
    () => createPathCache({ allowStale: true } as PathCacheOptions),
    /`allowStale` has no equivalent/,
  ],
  [
    'createPathCache({ ttlms: 5 }) (a typo)',
    () => createPathCache({ ttlms: 5 } as PathCacheOptions),
    /^Unknown option `ttlms` in createPathCache\(options\): did you mean `ttlMs`\?$/,
  ],
  [
    'createPathCache({ maximum: 5 }) (too far from any name)',
    () => createPathCache({ maximum: 5 } as PathCacheOptions),
    /known options are `max`, `ttlMs`/,
  ],
  [
    'invalidate(p, { recursive: true })',
    () => cache.invalidate('/x', { recursive: true } as never),
    /^Unknown option `recursive` in invalidate\(path, options\): known options are `deep`$/,
  ],
  [
    'isPathWithin(root, target, { verfiy: true })',
    () => void cache.isPathWithin('/', '/', { verfiy: true } as never),
    /did you mean `verify`\?/,
  ],
  [
    'isPathWithinSync(root, target, { verfiy: true })',
    () => cache.isPathWithinSync('/', '/', { verfiy: true } as never),
    /did you mean `verify`\?/,
  ],
  [
    'ensureDir(dir, { recursive: true })',
    () => void ensureDir('/tmp', { recursive: true } as never),
    /`recursive` is implied: ensureDir is always `mkdir -p`/,
  ],
  [
    'ensureDirSync(dir, { mdoe: 0o700 })',
    () => ensureDirSync('/tmp', { mdoe: 0o700 } as never),
    /did you mean `mode`\?/,
  ],
  [
    'cache.ensureDirSync(dir, { mod: 0o700 })',
    () => cache.ensureDirSync('/tmp', { mod: 0o700 } as never),
    /`mode`/,
  ],
  ['forgetDir(dir, { dep: true })', () => forgetDir('/tmp', { dep: true } as never), /did you mean `deep`\?/],
]

describe.for(cases)('%s', ([, call, message]) => {
  it('throws FsCacheArgumentError (a TypeError) at the call, naming the key', () => {
    expect(call).toThrow(FsCacheArgumentError)
    expect(call).toThrow(TypeError)
    expect(call).toThrow(message)
  })
})

describe('known options', () => {
  it('are all accepted, including the test seams', () => {
    expect(() => createPathCache({ max: 8, ttlMs: 10, now: () => 0 })).not.toThrow()
    expect(() => cache.invalidate('/x', { deep: true })).not.toThrow()
    expect(() => cache.isPathWithinSync('/', '/', { verify: false })).not.toThrow()
  })

  it('ttlMs really expires what ttl silently did not: a changed file is seen with its new size', async () => {
    const file = path.join(await tempDir(), 'f')
    fs.writeFileSync(file, 'a')
    let now = 0
    const expiring = createPathCache({ ttlMs: 500, now: () => now })
    expect((await expiring.stat(file)).size).toBe(1)
    fs.writeFileSync(file, 'abc')
    now = 501
    expect((await expiring.stat(file)).size).toBe(3)
  })
})
