import { describe, expect, it } from 'vitest'
import * as api from '@sessiontape/fs-cache'

describe('the public surface', () => {
  it('resolves the live sources through the @sessiontape/source condition and exports the contract', () => {
    expect(Object.keys(api).sort()).toEqual([
      'FsCacheArgumentError',
      'PathCache',
      'createPathCache',
      'ensureDir',
      'ensureDirSync',
      'forgetDir',
    ])
    const cache = api.createPathCache()
    for (const method of [
      'realpath',
      'realpathSync',
      'stat',
      'statSync',
      'lstat',
      'lstatSync',
      'isDirectory',
      'isDirectorySync',
      'exists',
      'existsSync',
      'isPathWithin',
      'isPathWithinSync',
      'findInDir',
      'findInDirSync',
      'ensureDir',
      'ensureDirSync',
      'invalidate',
      'clear',
      'stats',
    ] as const) {
      expect(typeof cache[method]).toBe('function')
    }
  })
})
